/**
 * The one narrow interface to the cloud providers' identity services: prove a cloud account's access
 * works (before saving it) and hand out the credentials a deployment needs. The real adapters use the
 * providers' own SDKs with Gantry's own identity from each SDK's default chain; tests hand in stubs.
 */
import { lazy } from '../../platform/lazy.js';
import type { AwsVerifierOptions } from './aws.js';
import type { AzureVerifierOptions } from './azure.js';
import type { GcpVerifierOptions } from './gcp.js';

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

/** The real adapters (AWS SDK v3 STS, @azure/identity, google-auth-library), each SDK loaded on its first use. */
export function createCloudVerifier(opts: CloudVerifierOptions = {}): CloudVerifier {
  const aws = lazy(async () => (await import('./aws.js')).createAwsVerifier(opts.aws));
  const azure = lazy(async () => (await import('./azure.js')).createAzureVerifier(opts.azure));
  const gcp = lazy(async () => (await import('./gcp.js')).createGcpVerifier(opts.gcp));
  return {
    aws: { assumeRole: async (input) => (await aws()).assumeRole(input) },
    azure: { getToken: async (input) => (await azure()).getToken(input) },
    gcp: { impersonate: async (input) => (await gcp()).impersonate(input) },
  };
}

/**
 * Whether a failure means this host has no AWS identity at all: the SDK's default chain found no credentials
 * (no AWS_* variables, profile, web identity, container or instance role), so STS was never asked. A refusal
 * by the customer's account (AccessDenied on AssumeRole) is something else.
 */
export function isAwsHostIdentityMissing(err: unknown): boolean {
  return (err as { name?: unknown } | null)?.name === 'CredentialsProviderError';
}

/** A short, loggable reason of a provider failure (error name and message; never the request's secrets). */
export function failureReason(err: unknown): string {
  const e = err as { name?: unknown; message?: unknown } | undefined;
  const name = typeof e?.name === 'string' ? e.name : 'Error';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  return `${name}: ${message}`.slice(0, 500);
}

export type { AwsVerifierOptions, AzureVerifierOptions, GcpVerifierOptions };
