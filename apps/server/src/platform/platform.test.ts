import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { io as ioClient } from 'socket.io-client';
import { createSecretBox, loadMasterKey, hashToken, randomToken } from './secrets.js';
import { createTestApp, registerUser, createProject, bearer, until, endMembersAccess, type TestApp } from '../../test/helpers.js';
import { REALTIME_PATH } from './realtime.js';
import { createIdTokens } from './tokens.js';
import fs from 'node:fs';
import path from 'node:path';
import { testTempDir } from '@gantry/test-support/temp-dir';

describe('secrets at rest', () => {
  const box = createSecretBox(loadMasterKey('a-long-enough-secret-key-for-the-tests-000', '/nonexistent'));
  it('seals with a fresh IV each time and opens again', () => {
    const a = box.seal('s3cr3t');
    expect(a).not.toContain('s3cr3t');
    expect(a).not.toBe(box.seal('s3cr3t'));
    expect(box.open(a)).toBe('s3cr3t');
  });
  it('refuses a tampered value or another key', () => {
    const sealed = box.seal('value');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => box.open(parts.join('.'))).toThrow();
    const other = createSecretBox(loadMasterKey('another-long-enough-secret-key-for-tests-1', '/nonexistent'));
    expect(() => other.open(sealed)).toThrow();
  });
  it('generates the master key once into the data dir', () => {
    const dir = testTempDir('gantry-key-');
    const k1 = loadMasterKey(undefined, dir);
    expect(loadMasterKey(undefined, dir).equals(k1)).toBe(true);
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
  });
  it('hashes tokens and makes them random', () => {
    const t = randomToken();
    expect(t).not.toBe(randomToken());
    expect(hashToken(t)).toHaveLength(64);
  });
});

describe('id tokens', () => {
  const key = new Uint8Array(32).fill(7);
  const claims = { sub: '00000000-0000-4000-8000-000000000001', email: 'a@example.com' };

  it("refuses a token issued before the user's revocation, even within the same second, and accepts one issued after it", async () => {
    let tokensValidAfter: Date | null = null;
    const tokens = createIdTokens(key, 900, async () => ({ tokensValidAfter }));
    const before = await tokens.sign(claims);
    expect((await tokens.verify(before)).sub).toBe(claims.sub);
    tokensValidAfter = new Date(); // the same millisecond as the signing, most likely
    await expect(tokens.verify(before)).rejects.toMatchObject({ status: 401, message: 'invalid token', extra: { type: 'JsonWebTokenError' } });
    const after = await tokens.sign(claims, { issuedAfter: tokensValidAfter });
    expect((await tokens.verify(after)).sub).toBe(claims.sub);
  });

  it('checks a signature once but the expiry on every use, and refuses a token altered after it was accepted', async () => {
    const tokens = createIdTokens(key, 60, async () => ({ tokensValidAfter: null }));
    const token = await tokens.sign(claims);
    expect((await tokens.verify(token)).sub).toBe(claims.sub);
    expect((await tokens.verify(token)).sub).toBe(claims.sub);
    const [head, body, sig] = token.split('.');
    const altered = [
      head,
      Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), email: 'b@example.com' })).toString('base64url'),
      sig,
    ].join('.');
    await expect(tokens.verify(altered)).rejects.toMatchObject({ status: 401, extra: { type: 'JsonWebTokenError' } });
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ['Date'] });
    try {
      await expect(tokens.verify(token)).rejects.toMatchObject({ status: 401, message: 'jwt expired', extra: { type: 'TokenExpiredError' } });
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a token of a user that no longer exists', async () => {
    const tokens = createIdTokens(key, 900, async () => undefined);
    await expect(tokens.verify(await tokens.sign(claims))).rejects.toMatchObject({ status: 401, extra: { type: 'JsonWebTokenError' } });
  });
});

describe('HTTP platform', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('maps the plan gate to 402 with its message', async () => {
    const s = await registerUser(t, 'gate@example.com');
    const pid = await createProject(t, s.idToken, 'Gate');
    const res = await fetch(`${url}/ms-project/projects/${pid}/subscription`, { headers: bearer(s.idToken) });
    expect(res.status).toBe(200);
    const err = await t.app.services.billing.assertFeature(pid, 'cloudCostOptimizer').catch((e) => e);
    expect(err.status).toBe(402);
    expect(err.code).toBe('PlanLimit');
  });

  it('publishes the OpenAPI document with every route', async () => {
    const res = await fetch(`${url}/docs/json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/ms-usermanagement/auth/login', '/ms-project/projects/{projectId}/users', '/ms-project/payment-plans']),
    );
  });

  it('keeps its answers to itself: no framing by another site, scripts only its own, no sniffing, no Referer, no HSTS over HTTP', async () => {
    for (const p of ['/projects', '/docs', '/ms-project/nothing-here', '/healthz']) {
      const res = await fetch(url + p);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, p).toContain("frame-ancestors 'none'");
      expect(csp, p).toContain("script-src 'self';");
      expect(csp, p).not.toContain('upgrade-insecure-requests');
      expect(res.headers.get('x-frame-options'), p).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), p).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), p).toBe('no-referrer');
      expect(res.headers.get('strict-transport-security'), p).toBeNull();
    }
  });

  it('answers unknown API paths with the JSON error model', async () => {
    const res = await fetch(`${url}/ms-project/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'NotFound' });
  });

  it('socket.io: refuses a socket without a valid token, joins only own projects, and delivers project events', async () => {
    const s = await registerUser(t, 'socket@example.com');
    const other = await registerUser(t, 'socket-other@example.com');
    const mine = await createProject(t, s.idToken, 'Sock');
    const theirs = await createProject(t, other.idToken, 'NotYours');

    const bad = ioClient(url, { path: REALTIME_PATH, query: { Authorization: 'junk' }, transports: ['websocket'], reconnection: false });
    const refused = await new Promise<string>((resolve) => bad.on('connect_error', (e) => resolve(e.message)));
    expect(refused).toBe('unauthorized');
    bad.close();

    const sock = ioClient(url, { path: REALTIME_PATH, query: { Authorization: s.idToken }, transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      sock.on('connect', () => resolve());
      sock.on('connect_error', reject);
    });
    expect(await sock.emitWithAck('project:join', theirs)).toEqual({ ok: false, message: 'Project not found' });
    expect(await sock.emitWithAck('project:join', mine)).toEqual({ ok: true });
    const got = new Promise((resolve) => sock.on('logs', resolve));
    t.app.services.realtime.toProject(mine, 'logs', { line: 'hello' });
    expect(await got).toEqual({ line: 'hello' });
    sock.close();
  });

  it('socket.io: delivers the events of a room in the order they were emitted', async () => {
    const s = await registerUser(t, 'socket-order@example.com');
    const mine = await createProject(t, s.idToken, 'Order');
    const sock = ioClient(url, { path: REALTIME_PATH, query: { Authorization: s.idToken }, transports: ['websocket'], reconnection: false });
    expect(await sock.emitWithAck('project:join', mine)).toEqual({ ok: true });
    const got: number[] = [];
    sock.on('tick', (n: number) => got.push(n));
    // on PostgreSQL every emit is a notify of its own: a burst of them finished in any order without the queue
    const sent = [...Array(200).keys()];
    for (const n of sent) t.app.services.realtime.toProject(mine, 'tick', n);
    await until(
      async () => got.length,
      (n) => n === sent.length,
      'every event to arrive',
    );
    sock.close();
    expect(got).toEqual(sent);
  });

  it('socket.io: refuses an id token revoked by log-out', async () => {
    const s = await registerUser(t, 'socket-out@example.com');
    await t.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/logout', payload: { refreshToken: s.refreshToken } });
    const revoked = ioClient(url, { path: REALTIME_PATH, query: { Authorization: s.idToken }, transports: ['websocket'], reconnection: false });
    const refused = await new Promise<{ message: string; data?: unknown }>((resolve) => {
      revoked.on('connect_error', (e) => resolve(e as never));
      revoked.on('connect', () => resolve({ message: 'connected' }));
    });
    revoked.close();
    expect(refused.message).toBe('unauthorized');
    expect(refused.data).toEqual({ message: 'invalid token' });
  });

  /** A connected socket that joined `projectId`; `heard` collects its project's 'tick' events, `ended` the server's disconnect. */
  async function following(idToken: string, projectId: string) {
    const sock = ioClient(url, { path: REALTIME_PATH, query: { Authorization: idToken }, transports: ['websocket'], reconnection: false });
    expect(await sock.emitWithAck('project:join', projectId)).toEqual({ ok: true });
    const heard: unknown[] = [];
    sock.on('tick', (n: unknown) => heard.push(n));
    const ended = new Promise<string>((resolve) => {
      sock.on('disconnect', resolve);
      setTimeout(() => resolve('still connected after 5 s'), 5_000).unref();
    });
    return { sock, heard, ended };
  }

  it('socket.io: a member removed from a project, or whose tokens a log-out or new password ended, no longer hears it on a socket opened before', async () => {
    const owner = await registerUser(t, 'socket-owner@example.com');
    const pid = await createProject(t, owner.idToken, 'Removal');
    const staying = await following(owner.idToken, pid);
    const { members, opened: sockets } = await endMembersAccess(t, owner.idToken, pid, 'socket', async (m) => ({
      removed: await following(m.removed.idToken, pid),
      leaving: await following(m.leaving.idToken, pid),
      changing: await following(m.changing.idToken, pid),
    }));
    for (const s of Object.values(sockets)) expect(await s.ended).toBe('io server disconnect');
    t.app.services.realtime.toProject(pid, 'tick', 1);
    await until(
      async () => staying.heard.length,
      (n) => n === 1,
      "the owner's event",
    );
    for (const s of Object.values(sockets)) expect(s.heard).toEqual([]);
    expect(staying.sock.connected).toBe(true);
    // connected again, the removed member may not join the project
    const again = ioClient(url, { path: REALTIME_PATH, query: { Authorization: members.removed.idToken }, transports: ['websocket'], reconnection: false });
    expect(await again.emitWithAck('project:join', pid)).toEqual({ ok: false, message: 'Project not found' });
    for (const s of [again, staying.sock, ...Object.values(sockets).map((x) => x.sock)]) s.close();
  });
});
