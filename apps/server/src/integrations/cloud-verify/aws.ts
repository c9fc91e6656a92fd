import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import type { AwsAssumeRoleInput, AwsSessionCredentials, CloudVerifier } from './index.js';

export interface AwsVerifierOptions {
  /** Hand in a client (tests); by default one from the SDK's own chain (see below). */
  client?: STSClient;
}

/** STS is global: when the chain names no region (no AWS_REGION, no profile region) its us-east-1 endpoint serves. */
const FALLBACK_REGION = 'us-east-1';

/**
 * AWS through the SDK's default configuration chain, unchanged (DESIGN §8): Gantry's own credentials
 * (env, profile, web identity, ECS/EC2 metadata…), AWS_REGION, AWS_ENDPOINT_URL and AWS_ENDPOINT_URL_STS.
 * No credentials are passed in code. The client is made on first use, so the chain is read then.
 */
export function createAwsVerifier(opts: AwsVerifierOptions = {}): CloudVerifier['aws'] {
  let client: Promise<STSClient> | undefined = opts.client ? Promise.resolve(opts.client) : undefined;
  const sts = () =>
    (client ??= (async () => {
      const chained = new STSClient({});
      const region = await chained.config.region().catch(() => undefined);
      if (region) return chained;
      chained.destroy();
      return new STSClient({ region: FALLBACK_REGION });
    })());

  return {
    async assumeRole(input: AwsAssumeRoleInput): Promise<AwsSessionCredentials> {
      const res = await (
        await sts()
      ).send(
        new AssumeRoleCommand({
          RoleArn: input.roleArn,
          ExternalId: input.externalId,
          RoleSessionName: input.sessionName,
          DurationSeconds: input.durationSeconds ?? 900,
        }),
      );
      const c = res.Credentials;
      if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken) throw new Error('STS AssumeRole answered without credentials');
      return { accessKeyId: c.AccessKeyId, secretAccessKey: c.SecretAccessKey, sessionToken: c.SessionToken, expiration: c.Expiration };
    },
  };
}
