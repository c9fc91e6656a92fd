import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createTestApp } from '../../../test/helpers.js';
import { registerErrorHandler } from '../../platform/errors.js';
import { createHooks } from '../../platform/hooks.js';
import type { CloudVerifier } from '../../integrations/cloud-verify/index.js';
import { createCloudAccountsModule } from './cloud-accounts.module.js';
import type { CloudAccountUsedBy } from './cloud-accounts.service.js';

export const GOOD = { awsExternalId: 'ext-good', azureSecret: 'good~secret', gcpTarget: /@.*\.iam\.gserviceaccount\.com$/ };

/**
 * A verifier standing in for the providers: STS accepts the external id 'ext-good' (or any stored one set in
 * `accepts`), Entra ID the secret 'good~secret', IAM Credentials any *.iam.gserviceaccount.com account.
 * Every call is recorded, so tests see what reached the provider.
 */
export function fakeVerifier() {
  const calls: { provider: 'aws' | 'azure' | 'gcp'; input: Record<string, unknown> }[] = [];
  const accepts = { awsExternalIds: new Set([GOOD.awsExternalId]), azureSecrets: new Set([GOOD.azureSecret]) };
  /** false: the host has no AWS identity, and the SDK fails before asking STS (as with no credentials anywhere). */
  const host = { awsIdentity: true };
  const verifier = {
    aws: {
      async assumeRole(input) {
        calls.push({ provider: 'aws', input: { ...input } });
        if (!host.awsIdentity)
          throw Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError', tryNextLink: false });
        if (!accepts.awsExternalIds.has(input.externalId))
          throw Object.assign(
            new Error(`User: arn:aws:iam::999999999999:user/gantry is not authorized to perform: sts:AssumeRole on resource: ${input.roleArn}`),
            { name: 'AccessDenied' },
          );
        return {
          accessKeyId: 'ASIAIOSFODNN7EXAMPLE',
          secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY',
          sessionToken: `session-for-${input.sessionName}`,
          expiration: new Date(Date.now() + 3_600_000),
        };
      },
    },
    azure: {
      async getToken(input) {
        calls.push({ provider: 'azure', input: { ...input } });
        if (!accepts.azureSecrets.has(input.clientSecret))
          throw Object.assign(new Error('AADSTS7000215: Invalid client secret provided.'), { name: 'AuthenticationRequiredError' });
        return { expiresOn: new Date(Date.now() + 3_600_000) };
      },
    },
    gcp: {
      async impersonate(input) {
        calls.push({ provider: 'gcp', input: { ...input } });
        if (!GOOD.gcpTarget.test(input.targetServiceAccount))
          throw new Error("Permission 'iam.serviceAccounts.getAccessToken' denied on resource (or it may not exist).");
        return { expiresOn: new Date(Date.now() + 600_000) };
      },
    },
  } satisfies CloudVerifier;
  return { verifier, calls, accepts, host };
}

/**
 * createTestApp (users, projects, guards on a fresh database) plus a second Fastify instance serving the
 * cloud-accounts routes under /ms-aws with the fake verifier, on the same database, secrets and guards.
 * (A separate instance, so this keeps working once app.ts registers the module itself.)
 */
export async function createCloudAccountsTestApp(o: { usedBy?: CloudAccountUsedBy } = {}) {
  const fake = fakeVerifier();
  const t = await createTestApp();
  const hooks = createHooks();
  if (o.usedBy) hooks.cloudAccountUsers.provide(o.usedBy);
  const module = createCloudAccountsModule({
    db: t.app.services.database.db,
    secrets: t.app.services.secrets,
    guards: t.app.services.guards,
    verifier: fake.verifier,
    hooks,
  });
  const api = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  api.setValidatorCompiler(validatorCompiler);
  api.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(api);
  await api.register(module.routes, { prefix: '/ms-aws' });
  await api.ready();
  return {
    ...t,
    api,
    service: module.service,
    fake,
    database: t.app.services.database,
    async close() {
      await api.close();
      await t.close();
    },
  };
}
