import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { startGitStandin, type GitStandin } from '@gantry/test-support/git-standin/index';
import { registerUser, bearer, createProject } from '../../../test/helpers.js';
import { createGitAccountsTestApp } from './git-accounts.test-app.js';
import { gitAccounts as gitAccountsTable } from './git-accounts.tables.js';
import type { PushEvent } from '../../integrations/git-providers/index.js';

/**
 * GitHub and GitLab accounts connected end to end against the stand-in: the authorize redirect, the code
 * exchange, repositories and branches through the API, a file through clientFor, and a push webhook delivered
 * over HTTP to a receiver that verifies it with the provider client.
 */
let standin: GitStandin;
let t: Awaited<ReturnType<typeof createGitAccountsTestApp>>;
let owner: { idToken: string };
let projectId: string;
const accounts: Partial<Record<'github' | 'gitlab', string>> = {};

// A webhook receiver on loopback; each delivery is verified with the account's provider client.
const received: { path: string; push?: PushEvent | null; error?: string }[] = [];
let verify: (path: string, headers: http.IncomingHttpHeaders, body: string) => PushEvent | null = () => null;
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => {
    body += c;
  });
  req.on('end', () => {
    try {
      received.push({ path: req.url!, push: verify(req.url!, req.headers, body) });
      res.writeHead(202).end();
    } catch (err) {
      received.push({ path: req.url!, error: (err as Error).message });
      res.writeHead(401).end();
    }
  });
});
let receiverUrl: string;

beforeAll(async () => {
  standin = await startGitStandin({ pageSize: 1 });
  await standin.createRepo('acme/web', { 'gantry.yaml': 'steps:\n  - name: build\n', 'app/main.ts': 'console.log(1);\n' });
  await standin.createRepo('acme/api', { 'README.md': '# api\n' });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  t = await createGitAccountsTestApp(standin.env, { usedByPipelines: async (id) => (id === accounts.gitlab ? ['nightly'] : []) });
  owner = await registerUser(t, 'owner@example.com');
  projectId = await createProject(t, owner.idToken, 'Delivery');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await standin?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-ap${url}`, headers: bearer(owner.idToken), payload });

describe.each(['github', 'gitlab'] as const)('a %s account', (type) => {
  it('connects through the authorize page and the redirect back to the Git tab', async () => {
    const providers = (await api('GET', '/git-providers')).json();
    const page = await fetch(providers[type].authorizeUrl, { redirect: 'manual' });
    const back = new URL(page.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe('http://gantry.test/settings');
    expect(back.searchParams.get('type')).toBe(type);
    const res = await api('POST', `/projects/${projectId}/git-accounts`, { code: back.searchParams.get('code'), type: back.searchParams.get('type') });
    expect(res.statusCode).toBe(201);
    accounts[type] = res.json().gitAccountId;
  });

  it('lists repositories (every page) and branches', async () => {
    const repos = (await api('GET', `/projects/${projectId}/git-accounts/${accounts[type]}/repositories`)).json().repositories;
    expect(repos.map((r: any) => r.fullName)).toEqual(['acme/api', 'acme/web']);
    const web = repos.find((r: any) => r.fullName === 'acme/web');
    const branches = await api('GET', `/projects/${projectId}/git-accounts/${accounts[type]}/branches?repositoryUrl=${encodeURIComponent(web.url)}`);
    expect(branches.json()).toEqual({ branches: ['main'] });
  });

  it('gives the build runner a client and token: file, commit, clone URL', async () => {
    const { client, token, account } = await t.gitAccounts.clientFor(projectId, accounts[type]!);
    expect(account).toEqual({ gitAccountId: accounts[type], accountName: 'dev', type });
    expect(await client.getFile(token, 'acme/web', 'main', 'gantry.yaml')).toBe('steps:\n  - name: build\n');
    expect((await client.getCommit(token, 'acme/api', 'main')).message).toBe('Initial commit');
    expect(client.cloneUrl(`${standin.url}/${type}/acme/web`, token)).toContain(`:${token}@127.0.0.1`);
  });

  it('registers a webhook and receives a verified push', async () => {
    const { client, token } = await t.gitAccounts.clientFor(projectId, accounts[type]!);
    const secret = `secret-for-${type}`;
    const hookPath = `/ms-ap/webhooks/${type}/some-pipeline`;
    verify = (path, headers, body) => (path === hookPath ? client.parsePush(headers, body, secret) : null);
    const hookId = await client.createWebhook(token, 'acme/web', `${receiverUrl}${hookPath}`, secret);
    const sha = await standin.commit('acme/web', { 'app/main.ts': `console.log('${type}');\n` }, `Bump via ${type}`);
    await standin.settled();
    const push = received.filter((r) => r.path === hookPath && r.push).at(-1)?.push;
    expect(push).toMatchObject({ branch: 'main', sha, message: `Bump via ${type}`, changedFiles: ['app/main.ts'], changedFilesComplete: true });
    // A delivery signed with another secret is refused.
    verify = (_path, headers, body) => client.parsePush(headers, body, 'another-secret');
    await standin.commit('acme/web', { 'app/other.ts': type }, 'Unverified');
    await standin.settled();
    expect(received.at(-1)).toMatchObject({ path: hookPath, error: expect.stringMatching(/does not match/) });
    await client.deleteWebhook(token, 'acme/web', hookId);
    expect(standin.hooks.filter((h) => h.provider === type)).toEqual([]);
  });
});

describe('token refresh', () => {
  it('refreshes an expired GitLab token once, re-seals it and keeps working', async () => {
    const id = accounts.gitlab!;
    const [before] = await t.database.db.select().from(gitAccountsTable).where(eq(gitAccountsTable.id, id));
    const oldToken = t.app.services.secrets.open(before!.accessTokenSealed);
    // The stored token is expired now (not by moving the clock: the refreshed token's expiry is
    // real time + its TTL, and a caller reading the row after the refresh must see it as fresh).
    await t.database.db
      .update(gitAccountsTable)
      .set({ tokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(gitAccountsTable.id, id));
    standin.expireAccessTokens('gitlab');
    // Concurrent callers share one refresh (GitLab refresh tokens are single-use).
    const [a, b] = await Promise.all([t.gitAccounts.clientFor(projectId, id), t.gitAccounts.clientFor(projectId, id)]);
    expect(a.token).toBe(b.token);
    expect(a.token).not.toBe(oldToken);
    expect(await a.client.getFile(a.token, 'acme/api', 'main', 'README.md')).toBe('# api\n');
    const [after] = await t.database.db.select().from(gitAccountsTable).where(eq(gitAccountsTable.id, id));
    expect(t.app.services.secrets.open(after!.accessTokenSealed)).toBe(a.token);
    expect(after!.refreshTokenSealed).not.toBe(before!.refreshTokenSealed);
    expect(after!.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    expect((await t.gitAccounts.clientFor(projectId, id)).token).toBe(a.token);
  });
});

describe("a build's client and token", () => {
  it('come from the account row kept by the read cache until the accounts are written', async () => {
    const id = accounts.github!;
    const reads = vi.spyOn(t.database.db, 'select');
    try {
      const first = await t.gitAccounts.clientFor(projectId, id);
      const queried = reads.mock.calls.length;
      expect((await t.gitAccounts.clientFor(projectId, id)).token).toBe(first.token);
      expect(reads.mock.calls.length).toBe(queried); // no query
      await t.database.db
        .update(gitAccountsTable)
        .set({ accessTokenSealed: t.app.services.secrets.seal('rotated') })
        .where(eq(gitAccountsTable.id, id));
      expect((await t.gitAccounts.clientFor(projectId, id)).token).toBe('rotated');
      expect(reads.mock.calls.length).toBe(queried + 1);
      await t.database.db
        .update(gitAccountsTable)
        .set({ accessTokenSealed: t.app.services.secrets.seal(first.token) })
        .where(eq(gitAccountsTable.id, id));
    } finally {
      reads.mockRestore();
    }
  });
});

describe('removal', () => {
  it('is refused while the pipelines module names a pipeline using the account', async () => {
    await expect(t.gitAccounts.remove(projectId, accounts.gitlab!)).rejects.toMatchObject({ status: 409, extra: { pipelines: ['nightly'] } });
    await t.gitAccounts.remove(projectId, accounts.github!);
    expect((await t.gitAccounts.list(projectId)).map((a) => a.type)).toEqual(['gitlab']);
  });
});
