import { describe, it, expect } from 'vitest';
import { createHttpHeaders, type HttpClient, type PipelineRequest, type PipelineResponse } from '@azure/core-rest-pipeline';
import { createAzureVerifier, AZURE_MANAGEMENT_SCOPE } from './azure.js';

const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const APP = '1950a258-227b-4e31-a9cf-717495945fc2';
const AUTHORITY = 'https://login.gantry.test';

/**
 * A stand-in of Microsoft Entra ID's endpoints, as the SDK's own transport (`httpClient`): the tenant's
 * OpenID configuration and the v2.0 token endpoint, answering in their recorded real shapes.
 */
function entraStandin(secrets: Record<string, string>) {
  const requests: { method: string; url: string; form?: URLSearchParams }[] = [];
  const json = (request: PipelineRequest, status: number, body: unknown): PipelineResponse => ({
    request,
    status,
    headers: createHttpHeaders({ 'content-type': 'application/json; charset=utf-8' }),
    bodyAsText: JSON.stringify(body),
  });
  const client: HttpClient = {
    async sendRequest(request) {
      const url = new URL(request.url);
      const form = typeof request.body === 'string' ? new URLSearchParams(request.body) : undefined;
      requests.push({ method: request.method, url: request.url, form });
      const tenant = url.pathname.split('/')[1]!;
      if (url.pathname.endsWith('/v2.0/.well-known/openid-configuration')) {
        return json(request, 200, {
          token_endpoint: `${AUTHORITY}/${tenant}/oauth2/v2.0/token`,
          token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
          jwks_uri: `${AUTHORITY}/${tenant}/discovery/v2.0/keys`,
          response_modes_supported: ['query', 'fragment', 'form_post'],
          subject_types_supported: ['pairwise'],
          id_token_signing_alg_values_supported: ['RS256'],
          response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
          scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
          issuer: `${AUTHORITY}/${tenant}/v2.0`,
          request_uri_parameter_supported: false,
          userinfo_endpoint: 'https://graph.microsoft.com/oidc/userinfo',
          authorization_endpoint: `${AUTHORITY}/${tenant}/oauth2/v2.0/authorize`,
          device_authorization_endpoint: `${AUTHORITY}/${tenant}/oauth2/v2.0/devicecode`,
          http_logout_supported: true,
          frontchannel_logout_supported: true,
          end_session_endpoint: `${AUTHORITY}/${tenant}/oauth2/v2.0/logout`,
          claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'tid'],
          kerberos_endpoint: `${AUTHORITY}/${tenant}/kerberos`,
          tenant_region_scope: 'EU',
          cloud_instance_name: 'microsoftonline.com',
          cloud_graph_host_name: 'graph.windows.net',
          msgraph_host: 'graph.microsoft.com',
          rbac_url: 'https://pas.windows.net',
        });
      }
      if (url.pathname.endsWith('/oauth2/v2.0/token') && request.method === 'POST') {
        const id = form?.get('client_id') ?? '';
        if (secrets[`${tenant}/${id}`] !== form?.get('client_secret')) {
          return json(request, 401, {
            error: 'invalid_client',
            error_description: `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${id}'. Trace ID: 0f5ab1de-3a4b-4c5d-8e9f-0a1b2c3d4e00 Correlation ID: 5d3c2b1a-0000-4111-8222-933344445555 Timestamp: 2026-05-01 12:00:00Z`,
            error_codes: [7000215],
            timestamp: '2026-05-01 12:00:00Z',
            trace_id: '0f5ab1de-3a4b-4c5d-8e9f-0a1b2c3d4e00',
            correlation_id: '5d3c2b1a-0000-4111-8222-933344445555',
            error_uri: `${AUTHORITY}/error?code=7000215`,
          });
        }
        return json(request, 200, {
          token_type: 'Bearer',
          expires_in: 3599,
          ext_expires_in: 3599,
          access_token: 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJodHRwczovL21hbmFnZW1lbnQuYXp1cmUuY29tIn0.c2ln',
        });
      }
      return json(request, 404, { error: 'not_found' });
    },
  };
  return { client, requests };
}

describe('Azure verifier (ClientSecretCredential of @azure/identity)', () => {
  it('gets a Resource Manager token for the app registration', async () => {
    const entra = entraStandin({ [`${TENANT}/${APP}`]: 'good~secret' });
    const verifier = createAzureVerifier({ credentialOptions: { authorityHost: AUTHORITY, disableInstanceDiscovery: true, httpClient: entra.client } });
    const token = await verifier.getToken({ tenantId: TENANT, applicationId: APP, clientSecret: 'good~secret' });
    expect(token.expiresOn).toBeInstanceOf(Date);
    expect(token.expiresOn!.getTime()).toBeGreaterThan(Date.now());
    const post = entra.requests.find((r) => r.method === 'POST')!;
    expect(post.url.split('?')[0]).toBe(`${AUTHORITY}/${TENANT}/oauth2/v2.0/token`);
    expect(post.form?.get('grant_type')).toBe('client_credentials');
    expect(post.form?.get('client_id')).toBe(APP);
    expect(post.form?.get('scope')).toBe(AZURE_MANAGEMENT_SCOPE);
  });

  it('rejects when Entra ID refuses the secret (invalid_client)', async () => {
    const entra = entraStandin({ [`${TENANT}/${APP}`]: 'good~secret' });
    const verifier = createAzureVerifier({ credentialOptions: { authorityHost: AUTHORITY, disableInstanceDiscovery: true, httpClient: entra.client } });
    await expect(verifier.getToken({ tenantId: TENANT, applicationId: APP, clientSecret: 'bad' })).rejects.toMatchObject({
      message: expect.stringMatching(/invalid_client|AADSTS7000215/),
    });
  });

  it('rejects a malformed tenant id before any request', async () => {
    const entra = entraStandin({});
    const verifier = createAzureVerifier({ credentialOptions: { authorityHost: AUTHORITY, disableInstanceDiscovery: true, httpClient: entra.client } });
    await expect(verifier.getToken({ tenantId: 'not a tenant!', applicationId: APP, clientSecret: 'x' })).rejects.toThrow();
    expect(entra.requests).toHaveLength(0);
  });
});
