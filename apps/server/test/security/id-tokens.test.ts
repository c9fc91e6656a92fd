import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { SignJWT, UnsecuredJWT } from 'jose';
import { io as ioClient } from 'socket.io-client';
import { createTestApp, registerUser, createProject, bearer, type TestApp } from '../helpers.js';
import { deriveKey, loadMasterKey } from '../../src/platform/secrets.js';
import { REALTIME_PATH } from '../../src/platform/realtime.js';

/**
 * Forged id tokens, made with what an attacker may hold or guess: no signature (alg none), another HMAC of the
 * instance's own key (HS512), the right key with a claim missing or changed (issuer, token_use, a past iat_ms), a
 * user that is gone. Every route, and the socket handshake, refuse them all; the genuine token is the control.
 */
const SECRET_KEY = 'test-secret-key-that-is-long-enough-0123456789'; // createTestApp's
const key = deriveKey(loadMasterKey(SECRET_KEY, '/nonexistent'), 'id-token');

let t: TestApp;
let user: { idToken: string; profile: { id: string; email: string } };
let projectId: string;

beforeAll(async () => {
  t = await createTestApp();
  user = await registerUser(t, 'sec21-tokens@example.com');
  projectId = await createProject(t, user.idToken, 'Tokens');
});
afterAll(async () => {
  await t?.close();
});

const claims = () => ({ email: user.profile.email, token_use: 'id', iat_ms: Date.now() });
const signed = (alg: 'HS256' | 'HS512', c: Record<string, unknown> = claims(), o: { sub?: string; iss?: string | null } = {}) => {
  const jwt = new SignJWT(c)
    .setProtectedHeader({ alg })
    .setSubject(o.sub ?? user.profile.id)
    .setIssuedAt()
    .setExpirationTime('1h');
  if (o.iss !== null) jwt.setIssuer(o.iss ?? 'gantry');
  return jwt.sign(key);
};

describe('forged id tokens', () => {
  it('are refused by the API and the socket handshake; the genuine one and one signed the same way are taken', async () => {
    const forged: Record<string, string> = {
      'alg none': new UnsecuredJWT(claims()).setSubject(user.profile.id).setIssuer('gantry').setIssuedAt().setExpirationTime('1h').encode(),
      'HS512 with the instance key': await signed('HS512'),
      'no issuer': await signed('HS256', claims(), { iss: null }),
      'another issuer': await signed('HS256', claims(), { iss: 'someone' }),
      'not an id token': await signed('HS256', { ...claims(), token_use: 'refresh' }),
      'a user that does not exist': await signed('HS256', claims(), { sub: '00000000-0000-4000-8000-000000000000' }),
      'its signature of another token': `${(await signed('HS256')).split('.').slice(0, 2).join('.')}.${user.idToken.split('.')[2]}`,
    };
    const routes = ['/ms-usermanagement/users/me', '/ms-project/projects', `/ms-ap/projects/${projectId}/pipelines`];
    const taken = async (token: string) => {
      const codes = [];
      for (const url of routes) codes.push((await t.app.inject({ method: 'GET', url, headers: bearer(token) })).statusCode);
      return codes;
    };
    expect(await taken(user.idToken)).toEqual([200, 200, 200]);
    expect(await taken(await signed('HS256'))).toEqual([200, 200, 200]); // the test's own signing is the server's
    for (const [what, token] of Object.entries(forged)) expect(await taken(token), what).toEqual([401, 401, 401]);

    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const handshake = (token: string) =>
      new Promise<string>((resolve) => {
        const s = ioClient(url, { path: REALTIME_PATH, query: { Authorization: token }, transports: ['websocket'], reconnection: false });
        s.on('connect', () => (s.close(), resolve('connected')));
        s.on('connect_error', (err) => (s.close(), resolve(`refused: ${err.message}`)));
      });
    expect(await handshake(user.idToken)).toBe('connected');
    for (const [what, token] of Object.entries(forged)) expect(await handshake(token), what).toBe('refused: unauthorized');
  });
});
