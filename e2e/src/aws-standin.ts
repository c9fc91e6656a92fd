import { afterAll } from 'vitest';
import { startStsStandin } from '@gantry/test-support';
import type { Stack } from './harness.js';

/**
 * Gives the Gantry server of this file an AWS identity of its own and points its SDK at the STS stand-in (and at any
 * other stand-in endpoints in `env`, e.g. the AWS stand-in's AWS_ENDPOINT_URL_<SERVICE>): the SDK reads its chain from
 * the process environment, which the server started next inherits. Call at the top of the file, before useStack;
 * the environment is restored and the stand-in closed after the file.
 */
export async function useAwsStandin(o: { region?: string; sts?: Parameters<typeof startStsStandin>[0]; env?: Record<string, string> } = {}) {
  const sts = await startStsStandin(o.sts ?? {});
  const savedEnv = { ...process.env };
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: 'AKIAGANTRYE2E',
    AWS_SECRET_ACCESS_KEY: 'gantry-e2e-secret',
    AWS_REGION: o.region ?? 'eu-central-1',
    AWS_ENDPOINT_URL_STS: sts.url,
    ...o.env,
  });
  delete process.env.AWS_PROFILE;
  afterAll(async () => {
    process.env = savedEnv;
    await sts.close();
  });
  return sts;
}

/** Connects the stand-in's account 123456789012 (role GantryDeployer) to a project through the API, as 'production'. */
export async function connectAwsAccount(stack: Pick<Stack, 'api'>, idToken: string, projectId: string, externalId: string): Promise<{ id: string }> {
  return stack.api(
    'POST',
    `/ms-aws/projects/${projectId}/aws-accounts`,
    { accountName: 'production', iamRole: 'arn:aws:iam::123456789012:role/GantryDeployer', externalId },
    idToken,
  );
}
