import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startGitStandin, type GitStandin } from '@gantry/test-support/git-standin/index';
import { createGitProviderClients, GitProviderError, InvalidSignature, type GitProviderClients } from './index.js';
import type { Config } from '../../config.js';

// The stand-in runs in this process: git must run asynchronously, or it would wait on a blocked event loop.
const run = promisify(execFile);
const gitEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

let standin: GitStandin;
let clients: GitProviderClients;
const redirect = (type: string) => `http://portal.test/settings?tab=git&type=${type}`;

beforeAll(async () => {
  standin = await startGitStandin({ pageSize: 2 });
  await standin.createRepo('acme/app', { 'gantry.yaml': 'steps: []\n', 'src/index.ts': 'export {};\n', 'docs/guide.md': '# Guide\n' });
  await standin.createRepo('acme/lib', { 'README.md': '# lib\n' });
  await standin.createRepo('zed/tools', { 'README.md': '# tools\n' });
  await standin.commit('acme/app', { 'src/feature.ts': 'export const f = 1;\n' }, 'Start a feature', 'feature/one');
  clients = createGitProviderClients(standin.env as unknown as Config, redirect);
}, 60_000);
afterAll(async () => {
  await standin?.close();
});

/** The authorize page as a browser would follow it: a redirect back with code and state. */
async function authorize(type: keyof GitProviderClients) {
  const res = await fetch(clients[type]!.authorizeUrl(), { redirect: 'manual' });
  expect(res.status).toBe(302);
  const back = new URL(res.headers.get('location')!);
  expect(back.origin + back.pathname).toBe('http://portal.test/settings');
  expect(back.searchParams.get('tab')).toBe('git');
  expect(back.searchParams.get('type')).toBe(type);
  expect(back.searchParams.get('state')).toBe('redirect:portal');
  return back.searchParams.get('code')!;
}

describe.each(['github', 'gitlab', 'bitbucket'] as const)('%s client against the stand-in', (type) => {
  let token: string;
  let refreshToken: string | undefined;

  it('exchanges the authorize code for tokens (once) and reads the user', async () => {
    const client = clients[type]!;
    const code = await authorize(type);
    const tokens = await client.exchangeCode(code);
    token = tokens.accessToken;
    refreshToken = tokens.refreshToken;
    if (type === 'github') expect(tokens).toEqual({ accessToken: expect.stringMatching(/^gho_/) });
    else expect(tokens).toMatchObject({ refreshToken: expect.any(String), expiresAt: expect.any(Date) });
    expect(await client.currentUser(token)).toEqual({ id: expect.any(String), name: 'dev' });
    await expect(client.exchangeCode(code)).rejects.toBeInstanceOf(GitProviderError);
  });

  it('lists every repository across pages, with https web URLs and default branches', async () => {
    const repos = await clients[type]!.listRepositories(token);
    expect(repos.map((r) => r.fullName).filter((n) => !n.startsWith('hooks/'))).toEqual(['acme/app', 'acme/lib', 'zed/tools']);
    expect(repos[0]).toMatchObject({ url: `${standin.url}/${type}/acme/app`, defaultBranch: 'main', id: expect.any(String) });
  });

  it('lists branches, reads commits by branch and sha, and files (null when missing)', async () => {
    const client = clients[type]!;
    expect(await client.listBranches(token, 'acme/app')).toEqual(['feature/one', 'main']);
    const head = await client.getCommit(token, 'acme/app', 'feature/one');
    expect(head).toMatchObject({ sha: expect.stringMatching(/^[0-9a-f]{40}$/), message: 'Start a feature', author: 'Dev' });
    expect((await client.getCommit(token, 'acme/app', head.sha)).sha).toBe(head.sha);
    expect(await client.getFile(token, 'acme/app', 'main', 'gantry.yaml')).toBe('steps: []\n');
    expect(await client.getFile(token, 'acme/app', head.sha, 'src/feature.ts')).toBe('export const f = 1;\n');
    expect(await client.getFile(token, 'acme/app', 'main', 'src/feature.ts')).toBeNull();
    expect(await client.getFile(token, 'acme/app', 'main', 'docs/nope.md')).toBeNull();
  });

  it('refuses a token it did not issue', async () => {
    await expect(clients[type]!.listRepositories('not-a-token')).rejects.toMatchObject({ status: 401 });
  });

  it('registers a push webhook whose deliveries verify, lists changed files, and deletes the hook', async () => {
    const client = clients[type]!;
    const repo = `hooks/${type}`;
    await standin.createRepo(repo, { 'a.txt': 'a' });
    const hookId = await client.createWebhook(token, repo, 'http://127.0.0.1:9/never', 'hook-secret');
    const sha = await standin.commit(repo, { 'b/c.txt': 'c', 'a.txt': null }, `Change files on ${type}`);
    await standin.settled();
    const delivery = standin.deliveries.filter((d) => d.hookId === hookId && d.event !== 'ping').at(-1)!;
    const push = client.parsePush(delivery.headers, delivery.body, 'hook-secret')!;
    expect(push).toMatchObject({ branch: 'main', sha, message: `Change files on ${type}`, author: 'Dev', before: expect.any(String) });
    if (push.changedFilesComplete) expect(push.changedFiles.sort()).toEqual(['a.txt', 'b/c.txt']);
    expect((await client.changedFiles(token, repo, push.before, push.sha)).sort()).toEqual(['a.txt', 'b/c.txt']);
    expect(() => client.parsePush(delivery.headers, delivery.body, 'other-secret')).toThrow(InvalidSignature);
    await client.deleteWebhook(token, repo, hookId);
    await client.deleteWebhook(token, repo, hookId); // already gone is fine
    expect(standin.hooks.filter((h) => h.repo === repo)).toEqual([]);
  });

  it('clones with the token in the clone URL, and not without it', async () => {
    const client = clients[type]!;
    const [repo] = await client.listRepositories(token);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-clone-'));
    try {
      await run('git', ['clone', '--quiet', '--branch', 'feature/one', client.cloneUrl(repo!.url, token), dir], { env: gitEnv });
      expect(fs.readFileSync(path.join(dir, 'src/feature.ts'), 'utf8')).toBe('export const f = 1;\n');
      await expect(run('git', ['ls-remote', repo!.url], { env: gitEnv })).rejects.toThrow();
      await expect(run('git', ['ls-remote', client.cloneUrl(repo!.url, 'wrong')], { env: gitEnv })).rejects.toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(type !== 'github')('refreshes an expired access token', async () => {
    const client = clients[type]!;
    standin.expireAccessTokens(type);
    await expect(client.currentUser(token)).rejects.toMatchObject({ status: 401 });
    const fresh = await client.refresh(refreshToken!);
    expect(fresh.accessToken).not.toBe(token);
    expect(await client.currentUser(fresh.accessToken)).toMatchObject({ name: 'dev' });
    if (type === 'gitlab') await expect(client.refresh(refreshToken!)).rejects.toBeInstanceOf(GitProviderError); // single use
  });
});
