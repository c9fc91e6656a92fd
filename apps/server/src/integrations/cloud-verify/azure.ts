import { ClientSecretCredential, type ClientSecretCredentialOptions } from '@azure/identity';
import type { AccessToken, AzureClientSecretInput, CloudVerifier } from './index.js';

/** The scope of Azure Resource Manager, which deployments (Terraform azurerm) use. */
export const AZURE_MANAGEMENT_SCOPE = 'https://management.azure.com/.default';

export interface AzureVerifierOptions {
  /**
   * Options of every ClientSecretCredential. By default none: the SDK reads AZURE_AUTHORITY_HOST itself
   * (sovereign clouds, a stand-in); tests hand in `httpClient` and `authorityHost`.
   */
  credentialOptions?: ClientSecretCredentialOptions;
}

/** A token from Microsoft Entra ID for the app registration: proves tenant, application id and secret belong together. */
export function createAzureVerifier(opts: AzureVerifierOptions = {}): CloudVerifier['azure'] {
  return {
    async getToken(input: AzureClientSecretInput): Promise<AccessToken> {
      const credential = new ClientSecretCredential(input.tenantId, input.applicationId, input.clientSecret, opts.credentialOptions);
      const token = await credential.getToken(AZURE_MANAGEMENT_SCOPE);
      if (!token?.token) throw new Error('Microsoft Entra ID answered without a token');
      return { expiresOn: new Date(token.expiresOnTimestamp) };
    },
  };
}
