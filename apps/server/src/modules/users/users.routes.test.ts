import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../config.js';
import { createTestApp, registerUser, login, bearer, codeFromMail, createProject, addMember, PASSWORD, type TestApp } from '../../../test/helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/ms-usermanagement${url}`, payload, headers });
const me_ = (idToken: string) => t.app.inject({ method: 'GET', url: '/ms-usermanagement/users/me', headers: bearer(idToken) });
/** Refresh tokens of a user that can still be used: neither rotated nor revoked. */
const liveRefreshTokens = async (userId: string) =>
  Number(
    (
      await t.app.services.database.executeSql(
        `select count(*)::int as n from refresh_tokens where user_id = '${userId}' and rotated_at is null and revoked_at is null`,
      )
    ).rows[0]!.n,
  );

describe('sign-up and verification', () => {
  it('signs up, mails a one-time verification code, verifies once', async () => {
    const res = await post('/auth/sign-up', { username: 'Ada@Example.com', password: PASSWORD, firstName: 'Ada', lastName: 'L' });
    expect(res.statusCode).toBe(201);
    const mail = await t.lastMail('ada@example.com');
    expect(mail?.subject).toMatch(/Verify/);
    const code = codeFromMail(mail!.text, '/account/verify/ada%40example.com/');
    const before = await post('/auth/login', { username: 'ada@example.com', password: PASSWORD });
    expect(before.statusCode).toBe(400);
    expect(before.json().code).toBe('UserNotConfirmedException');
    const fresh = codeFromMail((await t.lastMail('ada@example.com'))!.text, '/account/verify/');
    expect(fresh).not.toBe(code); // login of an unverified user mails a new link, the old one is void
    expect((await post('/auth/activate', { username: 'ada@example.com', code })).statusCode).toBe(400);
    expect((await post('/auth/activate', { username: 'ada@example.com', code: fresh })).statusCode).toBe(200);
    // the link opened again (or the older one) tells the truth: the address is verified; another's code or a made-up one does not
    expect((await post('/auth/activate', { username: 'ada@example.com', code: fresh })).statusCode).toBe(200);
    expect((await post('/auth/activate', { username: 'ada@example.com', code })).statusCode).toBe(200);
    expect((await post('/auth/activate', { username: 'ada@example.com', code: 'x'.repeat(fresh.length) })).json().message).toBe(
      'We were not able to verify your email!',
    );
    await post('/auth/sign-up', { username: 'bob@example.com', password: PASSWORD, firstName: 'Bob', lastName: 'B' });
    const bobs = codeFromMail((await t.lastMail('bob@example.com'))!.text, '/account/verify/bob%40example.com/');
    expect((await post('/auth/activate', { username: 'ada@example.com', code: bobs })).statusCode).toBe(400);
    expect((await post('/auth/activate', { username: 'bob@example.com', code: fresh })).statusCode).toBe(400);
    // given with another's address, Bob's link was not used up
    expect((await post('/auth/activate', { username: 'bob@example.com', code: bobs })).statusCode).toBe(200);
    const ok = await post('/auth/login', { username: 'ADA@example.com', password: PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ done: true, expiresIn: 900, profile: { email: 'ada@example.com', firstName: 'Ada', isInstanceAdmin: true } });
  });

  it('rejects bad input with field messages and loses nothing', async () => {
    const res = await post('/auth/sign-up', { username: 'nope', password: 'short', firstName: '', lastName: 'X' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('ValidationError');
    expect(body.fields.username).toContain('Please enter a valid email');
    expect(body.fields.password).toEqual(expect.arrayContaining(['Password must be at least 8 characters long', 'Password must contain at least one number']));
  });

  it('answers a sign-up on a taken e-mail exactly like a new one, and mails the owner instead', async () => {
    await registerUser(t, 'dup@example.com');
    const fresh = await post('/auth/sign-up', { username: 'brand-new@example.com', password: PASSWORD, firstName: 'A', lastName: 'B' });
    const taken = await post('/auth/sign-up', { username: 'dup@example.com', password: 'Other1234', firstName: 'A', lastName: 'B' });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.body).toBe(fresh.body);
    const mail = (await t.lastMail('dup@example.com'))!;
    expect(mail.subject).toBe('Someone tried to sign up to Gantry with your e-mail');
    expect(mail.text).toContain('http://gantry.test/login');
    expect(mail.text).not.toContain('/account/verify/');
    // the account is untouched: the old password still works, the one of the attempt does not
    expect((await login(t, 'dup@example.com', PASSWORD)).idToken).toBeTruthy();
    expect((await post('/auth/login', { username: 'dup@example.com', password: 'Other1234' })).statusCode).toBe(401);
  });

  it('the second user is not an instance admin', async () => {
    const s = await registerUser(t, 'second@example.com');
    expect(s.profile).toMatchObject({ email: 'second@example.com' });
    expect((s.profile as any).isInstanceAdmin).toBe(false);
  });
});

describe('login and tokens', () => {
  it('answers NotAuthorizedException for a wrong password or unknown user', async () => {
    await registerUser(t, 'pw@example.com');
    for (const body of [
      { username: 'pw@example.com', password: 'Wrong1234' },
      { username: 'ghost@example.com', password: PASSWORD },
    ]) {
      const res = await post('/auth/login', body);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    }
  });

  it('refresh rotates the refresh token and treats a late reuse as theft', async () => {
    const s = await registerUser(t, 'rot@example.com');
    const r1 = await post('/auth/refresh', { refreshToken: s.refreshToken }, bearer(s.idToken));
    expect(r1.statusCode).toBe(200);
    const next = r1.json();
    expect(next.refreshToken).not.toBe(s.refreshToken);
    const me = await t.app.inject({ method: 'GET', url: '/ms-usermanagement/users/me', headers: bearer(next.idToken) });
    expect(me.json().email).toBe('rot@example.com');
    // the rotated token is still honoured inside the grace window (two tabs refreshing at once)…
    const r2 = await post('/auth/refresh', { refreshToken: s.refreshToken });
    expect(r2.statusCode).toBe(200);
    // …with the same successor, so the family never grows a second live branch
    expect(r2.json().refreshToken).toBe(next.refreshToken);
    expect((await me_(r2.json().idToken)).statusCode).toBe(200);
    expect(await liveRefreshTokens(s.profile.id)).toBe(1);
    await t.app.services.database.executeSql(`update refresh_tokens set rotated_at = now() - interval '1 minute' where rotated_at is not null`);
    const stolen = await post('/auth/refresh', { refreshToken: s.refreshToken });
    expect(stolen.statusCode).toBe(401);
    expect(stolen.json().code).toBe('NotAuthorizedException');
    // …and the whole family is revoked
    expect((await post('/auth/refresh', { refreshToken: next.refreshToken })).statusCode).toBe(401);
  });

  it("refuses a refresh token presented with another user's id token", async () => {
    const a = await registerUser(t, 'ra@example.com');
    const b = await registerUser(t, 'rb@example.com');
    expect((await post('/auth/refresh', { refreshToken: a.refreshToken }, bearer(b.idToken))).statusCode).toBe(401);
    // …without burning it for its owner
    expect((await post('/auth/refresh', { refreshToken: a.refreshToken }, bearer(a.idToken))).statusCode).toBe(200);
  });

  it('two refreshes at once with one token answer the same successor', async () => {
    const s = await registerUser(t, 'rot-race@example.com');
    const answers = await Promise.all([1, 2, 3].map(() => post('/auth/refresh', { refreshToken: s.refreshToken })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().refreshToken)).size).toBe(1);
    expect(await liveRefreshTokens(s.profile.id)).toBe(1);
  });

  it('logout revokes the refresh token', async () => {
    const s = await registerUser(t, 'out@example.com');
    expect((await post('/auth/logout', { refreshToken: s.refreshToken })).statusCode).toBe(200);
    expect((await post('/auth/refresh', { refreshToken: s.refreshToken })).statusCode).toBe(401);
  });

  it('a rotated successor answered twice is still one family: logout revokes it', async () => {
    const s = await registerUser(t, 'out-rot@example.com');
    const next = (await post('/auth/refresh', { refreshToken: s.refreshToken })).json();
    expect((await post('/auth/logout', { refreshToken: s.refreshToken })).statusCode).toBe(200);
    expect((await post('/auth/refresh', { refreshToken: next.refreshToken })).statusCode).toBe(401);
    expect(await liveRefreshTokens(s.profile.id)).toBe(0);
  });

  it('tells an expired id token from a forged one', async () => {
    const short = await createTestApp({ GANTRY_ID_TOKEN_TTL_SECONDS: '1' });
    try {
      const s = await registerUser(short, 'exp@example.com');
      await new Promise((r) => setTimeout(r, 2100));
      const expired = await short.app.inject({ method: 'GET', url: '/ms-usermanagement/users/me', headers: bearer(s.idToken) });
      expect(expired.statusCode).toBe(401);
      expect(expired.json().type).toBe('TokenExpiredError');
      const refreshed = await short.app.inject({
        method: 'POST',
        url: '/ms-usermanagement/auth/refresh',
        payload: { refreshToken: s.refreshToken },
        headers: bearer(s.idToken),
      });
      expect(refreshed.statusCode).toBe(200);
    } finally {
      await short.close();
    }
    const forged = await t.app.inject({ method: 'GET', url: '/ms-usermanagement/users/me', headers: bearer('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad') });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().type).toBe('JsonWebTokenError');
    const none = await t.app.inject({ method: 'GET', url: '/ms-usermanagement/users/me' });
    expect(none.statusCode).toBe(401);
  });
});

describe('id token revocation', () => {
  const invalid = { message: 'invalid token', code: 401, type: 'JsonWebTokenError' };

  it('an id token stops working at log-out, and a fresh login right after works', async () => {
    const s = await registerUser(t, 'revoke-out@example.com');
    expect((await me_(s.idToken)).statusCode).toBe(200);
    expect((await post('/auth/logout', { refreshToken: s.refreshToken })).statusCode).toBe(200);
    const after = await me_(s.idToken);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(invalid);
    const again = await login(t, 'revoke-out@example.com', PASSWORD);
    expect((await me_(again.idToken)).statusCode).toBe(200);
  });

  it('an id token stops working at a password reset, and a login with the new password works', async () => {
    const s = await registerUser(t, 'revoke-reset@example.com');
    await post('/auth/forgot-password', { username: 'revoke-reset@example.com' });
    const code = codeFromMail((await t.lastMail('revoke-reset@example.com'))!.text, '/account/reset/');
    expect((await post('/auth/confirm-forgot-password', { username: 'revoke-reset@example.com', code, password: 'NewSecret77' })).statusCode).toBe(200);
    const after = await me_(s.idToken);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(invalid);
    expect((await post('/auth/refresh', { refreshToken: s.refreshToken })).statusCode).toBe(401);
    const again = await login(t, 'revoke-reset@example.com', 'NewSecret77');
    expect((await me_(again.idToken)).statusCode).toBe(200);
  });

  it('completing a registration revokes older id tokens yet answers one that works at once', async () => {
    const owner = await registerUser(t, 'revoke-owner@example.com');
    const projectId = await createProject(t, owner.idToken, 'Revocation');
    const member = await addMember(t, owner.idToken, projectId, 'revoke-member@example.com', 'read');
    expect((await me_(member.idToken)).statusCode).toBe(200);
  });
});

describe('per-account login limit', () => {
  const loginFrom = (address: string, username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/login', payload: { username, password }, remoteAddress: address });

  it('refuses an account after 5 failed logins, whatever the client address, with a clear 429', async () => {
    await registerUser(t, 'locked@example.com');
    for (let i = 0; i < 5; i++) expect((await loginFrom(`198.51.100.${i}`, 'locked@example.com', `Guess${i}aa1`)).statusCode).toBe(401);
    const refused = await loginFrom('203.0.113.9', 'locked@example.com', PASSWORD);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: 'Too many failed logins for this account. Please try again in 30 seconds, or reset your password.',
      code: 'TooManyRequestsException',
      retryAfterSeconds: 30,
    });
    expect(refused.headers['retry-after']).toBe('30');
    // resetting the password (as the message offers) proves the mailbox and lifts the lock
    await post('/auth/forgot-password', { username: 'locked@example.com' });
    const code = codeFromMail((await t.lastMail('locked@example.com'))!.text, '/account/reset/');
    expect((await post('/auth/confirm-forgot-password', { username: 'locked@example.com', code, password: 'NewSecret55' })).statusCode).toBe(200);
    expect((await loginFrom('203.0.113.9', 'locked@example.com', 'NewSecret55')).statusCode).toBe(200);
  });

  it('answers an unknown e-mail the same way, so the limit does not tell who has an account', async () => {
    for (let i = 0; i < 5; i++) expect((await loginFrom(`198.51.100.${i}`, 'nobody-here@example.com', `Guess${i}aa1`)).statusCode).toBe(401);
    expect((await loginFrom('203.0.113.9', 'nobody-here@example.com', PASSWORD)).statusCode).toBe(429);
  });

  it('a successful login resets the count', async () => {
    await registerUser(t, 'reset-count@example.com');
    for (let i = 0; i < 4; i++) expect((await loginFrom('198.51.100.1', 'reset-count@example.com', `Guess${i}aa1`)).statusCode).toBe(401);
    expect((await loginFrom('198.51.100.1', 'reset-count@example.com', PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await loginFrom('198.51.100.1', 'reset-count@example.com', `Guess${i}aa1`)).statusCode).toBe(401);
    expect((await loginFrom('198.51.100.1', 'reset-count@example.com', PASSWORD)).statusCode).toBe(200);
  });
});

describe('password recovery', () => {
  it('mails a one-time reset link and sets the new password', async () => {
    await registerUser(t, 'reset@example.com');
    expect((await post('/auth/forgot-password', { username: 'reset@example.com' })).statusCode).toBe(200);
    const code = codeFromMail((await t.lastMail('reset@example.com'))!.text, '/account/reset/');
    const bad = await post('/auth/confirm-forgot-password', { username: 'reset@example.com', code, password: 'weak' });
    expect(bad.statusCode).toBe(400);
    expect((await post('/auth/confirm-forgot-password', { username: 'reset@example.com', code, password: 'NewSecret99' })).statusCode).toBe(200);
    expect((await post('/auth/confirm-forgot-password', { username: 'reset@example.com', code, password: 'NewSecret98' })).statusCode).toBe(400);
    expect((await login(t, 'reset@example.com', 'NewSecret99')).idToken).toBeTruthy();
  });

  it('answers the same for an unknown e-mail and sends nothing', async () => {
    expect((await post('/auth/forgot-password', { username: 'nobody@example.com' })).statusCode).toBe(200);
    expect(await t.lastMail('nobody@example.com')).toBeUndefined();
    expect((await post('/auth/forgot-password', { username: 'not-an-email' })).statusCode).toBe(400);
  });
});

describe('profile and outbox', () => {
  it('updates the own profile', async () => {
    const s = await registerUser(t, 'prof@example.com');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/ms-usermanagement/users/me',
      headers: bearer(s.idToken),
      payload: { firstName: 'New', lastName: 'Name' },
    });
    expect(res.json()).toMatchObject({ firstName: 'New', lastName: 'Name' });
    expect(
      (await t.app.inject({ method: 'PUT', url: '/ms-usermanagement/users/me', headers: bearer(s.idToken), payload: { firstName: '', lastName: 'x' } }))
        .statusCode,
    ).toBe(400);
  });

  it('opens the outbox to the key holder and instance admins only', async () => {
    const key = t.app.services.outboxKey;
    const withKey = await t.app.inject({ method: 'GET', url: `/ms-usermanagement/outbox?key=${key}` });
    expect(withKey.statusCode).toBe(200);
    expect(withKey.json().mails.length).toBeGreaterThan(0);
    const admin = await login(t, 'ada@example.com', PASSWORD);
    expect((await t.app.inject({ method: 'GET', url: '/ms-usermanagement/outbox', headers: bearer(admin.idToken) })).statusCode).toBe(200);
    const other = await login(t, 'second@example.com', PASSWORD);
    expect((await t.app.inject({ method: 'GET', url: '/ms-usermanagement/outbox', headers: bearer(other.idToken) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/ms-usermanagement/outbox?key=wrong' })).statusCode).toBe(401);
  });
});

describe('GitHub sign-in', () => {
  it('exchanges the code at the configured provider and signs the user in', async () => {
    const provider = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/login/oauth/access_token') {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () =>
          res.end(
            JSON.stringify(
              JSON.parse(body).code === 'good'
                ? { access_token: 'gho_x' }
                : { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.; see docs' },
            ),
          ),
        );
        return;
      }
      if (req.headers.authorization !== 'Bearer gho_x') return res.writeHead(401).end('{}');
      if (req.url === '/user') return res.end(JSON.stringify({ id: 42, login: 'octo', name: 'Octo Cat' }));
      if (req.url === '/user/emails') return res.end(JSON.stringify([{ email: 'Octo@Example.com', primary: true, verified: true }]));
      res.writeHead(404).end('{}');
    });
    await new Promise<void>((r) => provider.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(provider.address() as any).port}`;
    const gh = await createTestApp({ GITHUB_CLIENT_ID: 'cid', GITHUB_CLIENT_SECRET: 'sec', GITHUB_OAUTH_URL: base, GITHUB_API_URL: base });
    try {
      const providers = await gh.app.inject({ method: 'GET', url: '/ms-usermanagement/auth/providers' });
      expect(providers.json().github.authorizeUrl).toBe(`${base}/login/oauth/authorize?client_id=cid&scope=read%3Auser%20user%3Aemail&state=login`);
      const ok = await gh.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/login/github', payload: { code: 'good' } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ done: true, profile: { email: 'octo@example.com', firstName: 'Octo', lastName: 'Cat' } });
      const bad = await gh.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/login/github', payload: { code: 'nope' } });
      expect(bad.statusCode).toBe(502);
      expect(bad.json().message).toBe('The code passed is incorrect or expired.; see docs');
    } finally {
      await gh.close();
      provider.close();
    }
    expect((await t.app.inject({ method: 'GET', url: '/ms-usermanagement/auth/providers' })).json()).toEqual({ github: null });
  });
});

describe('rate limits', () => {
  const ipRoute = { beforeReady: async (app: FastifyInstance) => void app.get('/test/ip', async (req) => ({ ip: req.ip })) };
  const forgot = (app: FastifyInstance, i: number) =>
    app.inject({
      method: 'POST',
      url: '/ms-usermanagement/auth/forgot-password',
      payload: { username: `x${i}@example.com` },
      headers: { 'x-forwarded-for': `203.0.113.${i}` },
    });

  it('by default, X-Forwarded-For neither sets the client address nor escapes the limit', async () => {
    const limited = await createTestApp({ GANTRY_RATE_LIMIT: 'true' }, ipRoute);
    try {
      const ip = await limited.app.inject({ method: 'GET', url: '/test/ip', headers: { 'x-forwarded-for': '203.0.113.7' }, remoteAddress: '192.0.2.1' });
      expect(ip.json()).toEqual({ ip: '192.0.2.1' });
      const codes: number[] = [];
      for (let i = 0; i < 11; i++) codes.push((await forgot(limited.app, i)).statusCode);
      expect(codes.slice(0, 10).every((c) => c === 200)).toBe(true);
      expect(codes[10]).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('behind a trusted proxy (TRUST_PROXY), the forwarded address counts', async () => {
    const proxied = await createTestApp({ GANTRY_RATE_LIMIT: 'true', TRUST_PROXY: '192.0.2.0/24' }, ipRoute);
    try {
      const viaProxy = await proxied.app.inject({ method: 'GET', url: '/test/ip', headers: { 'x-forwarded-for': '203.0.113.7' }, remoteAddress: '192.0.2.1' });
      expect(viaProxy.json()).toEqual({ ip: '203.0.113.7' });
      const direct = await proxied.app.inject({ method: 'GET', url: '/test/ip', headers: { 'x-forwarded-for': '203.0.113.7' }, remoteAddress: '198.51.100.1' });
      expect(direct.json()).toEqual({ ip: '198.51.100.1' });
    } finally {
      await proxied.close();
    }
  });

  it("reads TRUST_PROXY as Fastify's trustProxy: off, true or a list of proxy addresses", () => {
    const trust = (value?: string) => loadConfig({ ...(value === undefined ? {} : { TRUST_PROXY: value }) }).TRUST_PROXY;
    expect(trust()).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(true);
    expect(() => trust('2')).toThrow(/TRUST_PROXY: a hop count cannot tell a proxy from a client/);
    expect(trust('10.0.0.1, 192.168.0.0/16,loopback')).toEqual(['10.0.0.1', '192.168.0.0/16', 'loopback']);
    expect(() => trust('not an address')).toThrow(/TRUST_PROXY/);
  });

  it('slows down password guessing on login and recovery', async () => {
    const limited = await createTestApp({ GANTRY_RATE_LIMIT: 'true' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 11; i++) {
        // one account per guess: the per-account limit (5 failures) would answer first otherwise
        codes.push(
          (
            await limited.app.inject({
              method: 'POST',
              url: '/ms-usermanagement/auth/login',
              payload: { username: `x${i}@example.com`, password: `Guess${i}aa1` },
            })
          ).statusCode,
        );
      }
      expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
      expect(codes[10]).toBe(429);
      for (let i = 0; i < 10; i++)
        await limited.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/forgot-password', payload: { username: 'x@example.com' } });
      expect(
        (await limited.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/forgot-password', payload: { username: 'x@example.com' } })).statusCode,
      ).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
