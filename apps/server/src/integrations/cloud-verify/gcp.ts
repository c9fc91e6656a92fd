import { GoogleAuth, Impersonated, type AuthClient } from 'google-auth-library';
import type { AccessToken, CloudVerifier, GcpImpersonationInput } from './index.js';

export const GCP_CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

export interface GcpVerifierOptions {
  /** Gantry's own identity; by default Application Default Credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud, metadata server). */
  sourceClient?: () => Promise<AuthClient>;
  /** The IAM Credentials API; by default the library's own (https://iamcredentials.googleapis.com). */
  endpoint?: string;
}

/**
 * Impersonation of the account's target service account (it must grant Gantry's identity
 * roles/iam.serviceAccountTokenCreator): one generateAccessToken call proves the access works.
 */
export function createGcpVerifier(opts: GcpVerifierOptions = {}): CloudVerifier['gcp'] {
  let adc: Promise<AuthClient> | undefined;
  const source =
    opts.sourceClient ??
    (() =>
      (adc ??= new GoogleAuth({ scopes: [GCP_CLOUD_PLATFORM_SCOPE] }).getClient().catch((err: unknown) => {
        adc = undefined; // ADC may appear later (a mounted key, a metadata server); try again next time.
        throw err;
      })));
  return {
    async impersonate(input: GcpImpersonationInput): Promise<AccessToken> {
      const client = new Impersonated({
        sourceClient: await source(),
        targetPrincipal: input.targetServiceAccount,
        targetScopes: [GCP_CLOUD_PLATFORM_SCOPE],
        delegates: [],
        lifetime: 600,
        ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      });
      const { token } = await client.getAccessToken();
      if (!token) throw new Error('IAM Credentials answered without a token');
      const expiry = client.credentials.expiry_date;
      return { expiresOn: expiry ? new Date(expiry) : undefined };
    },
  };
}
