import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { OAuth2Client } from 'google-auth-library';
import { createGcpVerifier, GCP_CLOUD_PLATFORM_SCOPE } from './gcp.js';

const TARGET = 'deployer@my-project-123.iam.gserviceaccount.com';
const GANTRY_TOKEN = 'ya29.gantry-own-identity';

/**
 * A local stand-in of the IAM Credentials API (generateAccessToken), answering in its real shapes:
 * a token when Gantry's identity may impersonate the target, PERMISSION_DENIED otherwise.
 */
let server: http.Server;
let endpoint: string;
const calls: { url: string; auth?: string; body: any }[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      calls.push({ url: req.url!, auth: req.headers.authorization, body });
      const m = decodeURIComponent(req.url!).match(/^\/v1\/projects\/-\/serviceAccounts\/([^:]+):generateAccessToken$/);
      res.setHeader('content-type', 'application/json; charset=UTF-8');
      if (m && m[1] === TARGET && req.headers.authorization === `Bearer ${GANTRY_TOKEN}`) {
        res.end(JSON.stringify({ accessToken: 'ya29.c.impersonated-token', expireTime: new Date(Date.now() + 600_000).toISOString().replace(/\.\d+Z$/, 'Z') }));
        return;
      }
      res.statusCode = 403;
      res.end(
        JSON.stringify({
          error: {
            code: 403,
            message: "Permission 'iam.serviceAccounts.getAccessToken' denied on resource (or it may not exist).",
            status: 'PERMISSION_DENIED',
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason: 'IAM_PERMISSION_DENIED',
                domain: 'iam.googleapis.com',
                metadata: { permission: 'iam.serviceAccounts.getAccessToken' },
              },
            ],
          },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

/** Gantry's own identity: an OAuth2 client already holding a valid access token (as ADC would). */
const gantryIdentity = async () => {
  const client = new OAuth2Client();
  client.setCredentials({ access_token: GANTRY_TOKEN, expiry_date: Date.now() + 3_600_000 });
  return client;
};

describe('GCP verifier (google-auth-library Impersonated)', () => {
  it("impersonates the target service account with Gantry's identity", async () => {
    const verifier = createGcpVerifier({ sourceClient: gantryIdentity, endpoint });
    const token = await verifier.impersonate({ targetServiceAccount: TARGET });
    expect(token.expiresOn).toBeInstanceOf(Date);
    const call = calls.at(-1)!;
    expect(decodeURIComponent(call.url)).toBe(`/v1/projects/-/serviceAccounts/${TARGET}:generateAccessToken`);
    expect(call.auth).toBe(`Bearer ${GANTRY_TOKEN}`);
    expect(call.body).toMatchObject({ scope: [GCP_CLOUD_PLATFORM_SCOPE], lifetime: '600s' });
  });

  it('rejects when IAM refuses the impersonation (PERMISSION_DENIED)', async () => {
    const verifier = createGcpVerifier({ sourceClient: gantryIdentity, endpoint });
    await expect(verifier.impersonate({ targetServiceAccount: 'other@my-project-123.iam.gserviceaccount.com' })).rejects.toThrow(
      /iam.serviceAccounts.getAccessToken/,
    );
  });

  it('rejects when Gantry has no identity of its own', async () => {
    const verifier = createGcpVerifier({ sourceClient: () => Promise.reject(new Error('Could not load the default credentials.')), endpoint });
    await expect(verifier.impersonate({ targetServiceAccount: TARGET })).rejects.toThrow(/default credentials/);
  });
});
