/**
 * The one narrow interface to the cloud providers' identity services: prove a cloud account's access
 * works (before saving it) and hand out the credentials a deployment needs. The real adapters use the
 * providers' own SDKs with Gantry's own identity from each SDK's default chain; tests hand in stubs.
 */
import { createAwsVerifier, isAwsHostIdentityMissing, type AwsVerifierOptions } from './aws.js';
import { createAzureVerifier, type AzureVerifierOptions } from './azure.js';
import { createGcpVerifier, type GcpVerifierOptions } from './gcp.js';

export interface AwsAssumeRoleInput {
  roleArn: string;
  externalId: string;
  /** RoleSessionName ([\w+=,.@-], 2–64 characters). */
  sessionName: string;
  /** 900 (the minimum) to the role's maximum session duration. */
  durationSeconds?: number;
}
export interface AwsSessionCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  expiration?: Date;
}
export interface AzureClientSecretInput {
  tenantId: string;
  applicationId: string;
  clientSecret: string;
}
export interface GcpImpersonationInput {
  targetServiceAccount: string;
}
export interface AccessToken {
  expiresOn?: Date;
}

export interface CloudVerifier {
  /** STS AssumeRole of a connected account's role, as Gantry's own AWS identity. Rejects when refused. */
  aws: { assumeRole(input: AwsAssumeRoleInput): Promise<AwsSessionCredentials> };
  /** A token for Azure Resource Manager from the app registration's client secret. Rejects when refused. */
  azure: { getToken(input: AzureClientSecretInput): Promise<AccessToken> };
  /** An access token of the target service account, impersonated from Gantry's own ADC identity. Rejects when refused. */
  gcp: { impersonate(input: GcpImpersonationInput): Promise<AccessToken> };
}

export interface CloudVerifierOptions {
  aws?: AwsVerifierOptions;
  azure?: AzureVerifierOptions;
  gcp?: GcpVerifierOptions;
}

/** The real adapters (AWS SDK v3 STS, @azure/identity, google-auth-library). */
export function createCloudVerifier(opts: CloudVerifierOptions = {}): CloudVerifier {
  return { aws: createAwsVerifier(opts.aws), azure: createAzureVerifier(opts.azure), gcp: createGcpVerifier(opts.gcp) };
}

/** A short, loggable reason of a provider failure (error name and message; never the request's secrets). */
export function failureReason(err: unknown): string {
  const e = err as { name?: unknown; message?: unknown } | undefined;
  const name = typeof e?.name === 'string' ? e.name : 'Error';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return `${name}: ${message}`.slice(0, 500);
}

export { createAwsVerifier, createAzureVerifier, createGcpVerifier, isAwsHostIdentityMissing };
export type { AwsVerifierOptions, AzureVerifierOptions, GcpVerifierOptions };
