import {
  SENSITIVE_PLACEHOLDER,
  awsAccountIdFromArn,
  cloudAccountMessages,
  cloudAccountProviderOf,
  keepsSecret,
  type AwsAccount,
  type AwsAccountBody,
  type AzureAccount,
  type AzureAccountBody,
  type CloudAccountProvider,
  type GcpAccount,
  type GcpAccountBody,
  type UpdateAwsAccountBody,
  type UpdateAzureAccountBody,
  type UpdateGcpAccountBody,
} from '@gantry/contracts';
import type { SecretBox } from '../../platform/secrets.js';
import { AppError, Conflict, NotFound, Validation } from '../../platform/errors.js';
import { failureReason, isAwsHostIdentityMissing, type CloudVerifier } from '../../integrations/cloud-verify/index.js';
import type { AwsAccountRow, AzureAccountRow, CloudAccountsStore, GcpAccountRow } from './cloud-accounts.store.js';

import type { CloudAccountRef } from '../../platform/hooks.js';

export type { CloudAccountRef };

/** Names of what uses an account (environments answer through the cloudAccountUsers hook); removal is refused while any do. */
export type CloudAccountUsedBy = (projectId: string, account: CloudAccountRef) => Promise<string[]>;

/** The environment variables Terraform (and the AWS/Azure/Google CLIs) need to act in an account. */
export type CloudCredentialsEnv = Record<string, string>;

interface Log {
  warn(obj: object, msg?: string): void;
}

/** Session names Gantry's assumed-role sessions carry (visible in the account's CloudTrail). */
const VERIFY_SESSION = 'gantry-verify';
const DEPLOY_SESSION_SECONDS = 3600;
/**
 * A deployment's assumed-role session is reused by the next ones while it has at least this long left
 * (its first quarter hour): every run still starts with 45 minutes or more, and saves the STS round trip.
 */
const SESSION_REUSE_MIN_LEFT_MS = 45 * 60_000;
const KEPT_SESSIONS_MAX = 1000;

const toAws = (r: AwsAccountRow): AwsAccount => ({ id: r.awsAccountId, accountName: r.accountName, iamRole: r.iamRole, externalId: SENSITIVE_PLACEHOLDER });
const toGcp = (r: GcpAccountRow): GcpAccount => ({ gcpProjectId: r.gcpProjectId, projectName: r.projectName, targetServiceAccount: r.targetServiceAccount });
const toAzure = (r: AzureAccountRow): AzureAccount => ({
  tenantId: r.tenantId,
  subscriptionId: r.subscriptionId,
  applicationId: r.applicationId,
  subscriptionName: r.subscriptionName,
  clientSecret: SENSITIVE_PLACEHOLDER,
});

/** The PostgreSQL error code of a failed query (drizzle wraps the driver's error in `cause`). */
function pgCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

export function createCloudAccountsService(deps: {
  store: CloudAccountsStore;
  secrets: SecretBox;
  verifier: CloudVerifier;
  usedBy: CloudAccountUsedBy;
  log?: Log;
}) {
  const { store, secrets, verifier, usedBy } = deps;
  /** Deployment sessions by project, account, role and sealed external id (an edited account gets a new one). */
  const sessions = new Map<string, { env: CloudCredentialsEnv; expiresAt: number }>();
  const reusable = (s: { expiresAt: number } | undefined, now: number) => !!s && s.expiresAt - now >= SESSION_REUSE_MIN_LEFT_MS;

  /**
   * Any refusal or failure of the provider is the spec's 400 message (§8). `reason` carries the provider's own
   * words (e.g. which principal STS refused), which an administrator needs to fix a trust policy. A host without
   * an AWS identity of its own says so instead: the role ARN and external id were never put to the test.
   */
  async function verify<T>(provider: CloudAccountProvider, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      const reason = failureReason(err);
      deps.log?.warn({ provider, reason }, 'cloud account connection failed');
      if (provider === 'aws' && isAwsHostIdentityMissing(err))
        throw new AppError(400, cloudAccountMessages.awsHostIdentityMissing, 'CloudHostIdentityMissing', { reason });
      throw new AppError(400, cloudAccountMessages.connectionFailed(provider), 'CloudConnectionFailed', { reason });
    }
  }

  async function insertOnce<T>(what: string, insert: () => Promise<T>): Promise<T> {
    try {
      return await insert();
    } catch (err) {
      if (pgCode(err) === '23505') throw new Conflict(`${what} is already connected to this project`);
      throw err;
    }
  }

  async function ensureUnused(projectId: string, ref: CloudAccountRef, what: string) {
    const names = await usedBy(projectId, ref);
    if (names.length) {
      throw new Conflict(
        `${what} is used by the environment${names.length === 1 ? '' : 's'} ${names.join(', ')}; change ${names.length === 1 ? 'it' : 'them'} first`,
        { environments: names },
      );
    }
  }

  const aws = {
    async get(projectId: string, awsAccountId: string) {
      const row = await store.aws.get(projectId, awsAccountId);
      if (!row) throw new NotFound('AWS account not found');
      return row;
    },
    assume(iamRole: string, externalId: string, sessionName: string, durationSeconds?: number) {
      return verify('aws', () => verifier.aws.assumeRole({ roleArn: iamRole, externalId, sessionName, durationSeconds }));
    },
  };
  const gcpGet = async (projectId: string, gcpProjectId: string) => {
    const row = await store.gcp.get(projectId, gcpProjectId);
    if (!row) throw new NotFound('Google Cloud Platform account not found');
    return row;
  };
  const azureGet = async (projectId: string, tenantId: string, subscriptionId: string) => {
    const row = await store.azure.get(projectId, tenantId, subscriptionId);
    if (!row) throw new NotFound('Microsoft Azure account not found');
    return row;
  };

  async function credentialsFor(projectId: string, provider: 'aws', awsAccountId: string): Promise<CloudCredentialsEnv>;
  async function credentialsFor(projectId: string, provider: 'gcp' | 'google', gcpProjectId: string): Promise<CloudCredentialsEnv>;
  async function credentialsFor(
    projectId: string,
    provider: 'azure' | 'azurerm',
    account: { tenantId: string; subscriptionId: string },
  ): Promise<CloudCredentialsEnv>;
  /**
   * For deployments: the environment variables Terraform needs to act in a connected account.
   * AWS: a fresh assumed-role session (1 hour) of the account's role; Azure: the app registration (ARM_*);
   * GCP: the service account Terraform's google provider impersonates from Gantry's own ADC identity.
   * `provider` may also be an environment's cloudProvider (aws, azurerm, google).
   */
  async function credentialsFor(projectId: string, provider: string, id: string | { tenantId: string; subscriptionId: string }): Promise<CloudCredentialsEnv> {
    const kind = cloudAccountProviderOf(provider);
    if (kind === 'aws' && typeof id === 'string') {
      const row = await aws.get(projectId, id);
      const key = JSON.stringify([projectId, row.awsAccountId, row.iamRole, row.externalIdSealed]);
      const kept = sessions.get(key);
      if (reusable(kept, Date.now())) return { ...kept!.env };
      const c = await aws.assume(row.iamRole, secrets.open(row.externalIdSealed), `gantry-${projectId.slice(0, 8)}`, DEPLOY_SESSION_SECONDS);
      const env = { AWS_ACCESS_KEY_ID: c.accessKeyId, AWS_SECRET_ACCESS_KEY: c.secretAccessKey, AWS_SESSION_TOKEN: c.sessionToken };
      if (c.expiration) {
        const now = Date.now();
        for (const [k, s] of sessions) if (!reusable(s, now) || sessions.size >= KEPT_SESSIONS_MAX) sessions.delete(k);
        sessions.set(key, { env, expiresAt: c.expiration.getTime() });
      }
      return { ...env };
    }
    if (kind === 'gcp' && typeof id === 'string') {
      const row = await gcpGet(projectId, id);
      return { GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: row.targetServiceAccount, GOOGLE_PROJECT: row.gcpProjectId };
    }
    if (kind === 'azure' && typeof id === 'object') {
      const row = await azureGet(projectId, id.tenantId, id.subscriptionId);
      return {
        ARM_CLIENT_ID: row.applicationId,
        ARM_CLIENT_SECRET: secrets.open(row.clientSecretSealed),
        ARM_TENANT_ID: row.tenantId,
        ARM_SUBSCRIPTION_ID: row.subscriptionId,
      };
    }
    throw new Validation(`No cloud account of provider ${provider} is named by ${JSON.stringify(id)}`);
  }

  return {
    // ---------- AWS ----------
    async listAws(projectId: string): Promise<AwsAccount[]> {
      return (await store.aws.list(projectId)).map(toAws);
    },
    /** Connects an AWS account after STS accepted assuming its role with the external id. */
    async addAws(projectId: string, userId: string | null, body: AwsAccountBody): Promise<AwsAccount> {
      const awsAccountId = awsAccountIdFromArn(body.iamRole);
      const what = `AWS account ${awsAccountId}`;
      if (await store.aws.get(projectId, awsAccountId)) throw new Conflict(`${what} is already connected to this project`);
      await aws.assume(body.iamRole, body.externalId, VERIFY_SESSION);
      const row = await insertOnce(what, () =>
        store.aws.insert({
          projectId,
          awsAccountId,
          accountName: body.accountName,
          iamRole: body.iamRole,
          externalIdSealed: secrets.seal(body.externalId),
          createdBy: userId,
        }),
      );
      return toAws(row);
    },
    /** The role may change within the same AWS account; an external id left at its placeholder keeps the stored one. */
    async updateAws(projectId: string, awsAccountId: string, body: UpdateAwsAccountBody): Promise<AwsAccount> {
      const row = await aws.get(projectId, awsAccountId);
      if (awsAccountIdFromArn(body.iamRole) !== row.awsAccountId) {
        const message = `The IAM role ARN must stay in AWS account ${row.awsAccountId}`;
        throw new Validation(message, { iamRole: [message] });
      }
      const externalId = keepsSecret(body.externalId) ? secrets.open(row.externalIdSealed) : body.externalId!;
      await aws.assume(body.iamRole, externalId, VERIFY_SESSION);
      const updated = await store.aws.update(row.id, {
        accountName: body.accountName,
        iamRole: body.iamRole,
        ...(keepsSecret(body.externalId) ? {} : { externalIdSealed: secrets.seal(externalId) }),
      });
      return toAws(updated);
    },
    async removeAws(projectId: string, awsAccountId: string): Promise<void> {
      const row = await aws.get(projectId, awsAccountId);
      await ensureUnused(projectId, { provider: 'aws', awsAccountId }, `AWS account ${awsAccountId}`);
      await store.aws.delete(row.id);
    },

    // ---------- GCP ----------
    async listGcp(projectId: string): Promise<GcpAccount[]> {
      return (await store.gcp.list(projectId)).map(toGcp);
    },
    /** Connects a Google Cloud project after Gantry's identity could impersonate its service account. */
    async addGcp(projectId: string, userId: string | null, body: GcpAccountBody): Promise<GcpAccount> {
      const what = `Google Cloud Platform project ${body.gcpProjectId}`;
      if (await store.gcp.get(projectId, body.gcpProjectId)) throw new Conflict(`${what} is already connected to this project`);
      await verify('gcp', () => verifier.gcp.impersonate({ targetServiceAccount: body.targetServiceAccount }));
      const row = await insertOnce(what, () => store.gcp.insert({ projectId, ...body, createdBy: userId }));
      return toGcp(row);
    },
    async updateGcp(projectId: string, gcpProjectId: string, body: UpdateGcpAccountBody): Promise<GcpAccount> {
      const row = await gcpGet(projectId, gcpProjectId);
      await verify('gcp', () => verifier.gcp.impersonate({ targetServiceAccount: body.targetServiceAccount }));
      return toGcp(await store.gcp.update(row.id, { projectName: body.projectName, targetServiceAccount: body.targetServiceAccount }));
    },
    async removeGcp(projectId: string, gcpProjectId: string): Promise<void> {
      const row = await gcpGet(projectId, gcpProjectId);
      await ensureUnused(projectId, { provider: 'gcp', gcpProjectId }, `Google Cloud Platform project ${gcpProjectId}`);
      await store.gcp.delete(row.id);
    },

    // ---------- Azure ----------
    async listAzure(projectId: string): Promise<AzureAccount[]> {
      return (await store.azure.list(projectId)).map(toAzure);
    },
    /** Connects an Azure subscription after Microsoft Entra ID issued a token for the app registration. */
    async addAzure(projectId: string, userId: string | null, body: AzureAccountBody): Promise<AzureAccount> {
      const what = `Microsoft Azure subscription ${body.subscriptionId}`;
      if (await store.azure.get(projectId, body.tenantId, body.subscriptionId)) throw new Conflict(`${what} is already connected to this project`);
      await verify('azure', () => verifier.azure.getToken({ tenantId: body.tenantId, applicationId: body.applicationId, clientSecret: body.clientSecret }));
      const row = await insertOnce(what, () =>
        store.azure.insert({
          projectId,
          tenantId: body.tenantId,
          subscriptionId: body.subscriptionId,
          applicationId: body.applicationId,
          subscriptionName: body.subscriptionName,
          clientSecretSealed: secrets.seal(body.clientSecret),
          createdBy: userId,
        }),
      );
      return toAzure(row);
    },
    /** Tenant and subscription cannot change (they name the account); a secret left at its placeholder keeps the stored one. */
    async updateAzure(projectId: string, tenantId: string, subscriptionId: string, body: UpdateAzureAccountBody): Promise<AzureAccount> {
      const row = await azureGet(projectId, tenantId, subscriptionId);
      const clientSecret = keepsSecret(body.clientSecret) ? secrets.open(row.clientSecretSealed) : body.clientSecret!;
      await verify('azure', () => verifier.azure.getToken({ tenantId, applicationId: body.applicationId, clientSecret }));
      const updated = await store.azure.update(row.id, {
        applicationId: body.applicationId,
        subscriptionName: body.subscriptionName,
        ...(keepsSecret(body.clientSecret) ? {} : { clientSecretSealed: secrets.seal(clientSecret) }),
      });
      return toAzure(updated);
    },
    async removeAzure(projectId: string, tenantId: string, subscriptionId: string): Promise<void> {
      const row = await azureGet(projectId, tenantId, subscriptionId);
      await ensureUnused(projectId, { provider: 'azure', tenantId, subscriptionId }, `Microsoft Azure subscription ${subscriptionId}`);
      await store.azure.delete(row.id);
    },

    credentialsFor,
  };
}
export type CloudAccountsService = ReturnType<typeof createCloudAccountsService>;
