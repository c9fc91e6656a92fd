import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startGitStandin, type GitStandin } from './index.js';

const run = promisify(execFile);
const gitEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

let standin: GitStandin;
const delivered: { url: string; headers: Record<string, string>; body: string }[] = [];

beforeAll(async () => {
  standin = await startGitStandin({
    callbackUrl: 'http://portal.test/callback',
    deliver: async (d) => {
      delivered.push(d);
      return { status: 202 };
    },
  });
  await standin.createRepo('team/site', { 'index.html': '<h1>hi</h1>\n' }, 'trunk');
}, 30_000);
afterAll(async () => {
  await standin?.close();
});

describe('git stand-in', { timeout: 30_000 }, () => {
  it('sends the browser back to redirect_uri (its own query kept) or to the callback URL, with code and state', async () => {
    const withRedirect = await fetch(
      `${standin.github.oauthUrl}/login/oauth/authorize?client_id=${standin.github.clientId}&state=redirect%3Aportal&redirect_uri=${encodeURIComponent('http://portal.test/settings?tab=git&type=github')}`,
      { redirect: 'manual' },
    );
    const back = new URL(withRedirect.headers.get('location')!);
    expect(Object.fromEntries(back.searchParams)).toEqual({ tab: 'git', type: 'github', code: expect.any(String), state: 'redirect:portal' });
    const toCallback = await fetch(`${standin.bitbucket.oauthUrl}/site/oauth2/authorize?client_id=${standin.bitbucket.clientId}&response_type=code`, {
      redirect: 'manual',
    });
    expect(toCallback.headers.get('location')).toMatch(/^http:\/\/portal\.test\/callback\?code=/);
    const unknown = await fetch(`${standin.gitlab.url}/oauth/authorize?client_id=nope&response_type=code&redirect_uri=http://x.test/`, { redirect: 'manual' });
    expect(unknown.status).toBe(400);
  });

  it("answers GitHub's token endpoint form-encoded unless JSON is asked for, and with an error for bad credentials", async () => {
    const code = standin.issueCode('github');
    const form = await fetch(`${standin.github.oauthUrl}/login/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: standin.github.clientId, client_secret: standin.github.clientSecret, code }),
    });
    expect(Object.fromEntries(new URLSearchParams(await form.text()))).toEqual({
      access_token: expect.stringMatching(/^gho_/),
      token_type: 'bearer',
      scope: 'repo',
    });
    const bad = await fetch(`${standin.github.oauthUrl}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: standin.github.clientId, client_secret: 'wrong', code: standin.issueCode('github') }),
    });
    expect(await bad.json()).toMatchObject({ error: 'incorrect_client_credentials' });
  });

  it('addresses GitLab projects by numeric id and by URL-encoded path', async () => {
    const token = standin.issueToken('gitlab');
    const headers = { authorization: `Bearer ${token}` };
    const byPath: any = await (await fetch(`${standin.gitlab.url}/api/v4/projects/${encodeURIComponent('team/site')}`, { headers })).json();
    expect(byPath).toMatchObject({ path_with_namespace: 'team/site', default_branch: 'trunk' });
    const byId: any = await (await fetch(`${standin.gitlab.url}/api/v4/projects/${byPath.id}`, { headers })).json();
    expect(byId.path_with_namespace).toBe('team/site');
    expect((await fetch(`${standin.gitlab.url}/api/v4/projects/${byPath.id}`)).status).toBe(401);
  });

  it('takes a push over smart HTTP with a token, refuses it without one', async () => {
    const token = standin.issueToken('bitbucket');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'standin-push-'));
    try {
      const url = new URL(`${standin.url}/bitbucket/team/site.git`);
      url.username = 'x-token-auth';
      url.password = token;
      await run('git', ['clone', '--quiet', url.toString(), dir], { env: gitEnv });
      fs.writeFileSync(path.join(dir, 'about.html'), 'about\n');
      await run('git', ['add', 'about.html'], { cwd: dir, env: gitEnv });
      await run('git', ['-c', 'user.name=Pusher', '-c', 'user.email=p@example.com', 'commit', '--quiet', '-m', 'About page'], { cwd: dir, env: gitEnv });
      await run('git', ['push', '--quiet', 'origin', 'HEAD:refs/heads/about'], { cwd: dir, env: gitEnv });
      const branches: any = await (
        await fetch(`${standin.bitbucket.apiUrl}/repositories/team/site/refs/branches`, { headers: { authorization: `Bearer ${token}` } })
      ).json();
      expect(branches.values.map((b: any) => b.name)).toEqual(['about', 'trunk']);
      await expect(
        run('git', ['push', '--quiet', `${standin.url}/bitbucket/team/site.git`, 'HEAD:refs/heads/other'], { cwd: dir, env: gitEnv }),
      ).rejects.toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("delivers GitHub's ping, then pushes through the custom transport, signed", async () => {
    const token = standin.issueToken('github');
    const res = await fetch(`${standin.github.apiUrl}/repos/team/site/hooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'web', active: true, events: ['push'], config: { url: 'https://ci.example.com/hook', content_type: 'json', secret: 's' } }),
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as any).config).toMatchObject({ url: 'https://ci.example.com/hook', secret: '********' });
    await standin.settled();
    const sha = await standin.commit('team/site', { 'index.html': '<h1>hello</h1>\n' }, 'Greet', 'trunk');
    const [ping, push] = delivered.slice(-2);
    expect(ping!.headers['X-GitHub-Event']).toBe('ping');
    expect(push!.headers).toMatchObject({ 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': expect.stringMatching(/^sha256=[0-9a-f]{64}$/) });
    expect(JSON.parse(push!.body)).toMatchObject({ ref: 'refs/heads/trunk', after: sha, head_commit: { message: 'Greet', modified: ['index.html'] } });
  });

  it('delivers a push made with git over HTTP to the hooks, as a push from the commit', async () => {
    const token = standin.issueToken('github');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'standin-hook-push-'));
    try {
      const url = new URL(`${standin.url}/github/team/site.git`);
      url.username = 'dev';
      url.password = token;
      await run('git', ['clone', '--quiet', url.toString(), dir], { env: gitEnv });
      fs.writeFileSync(path.join(dir, 'pushed.html'), 'pushed\n');
      await run('git', ['add', 'pushed.html'], { cwd: dir, env: gitEnv });
      await run('git', ['-c', 'user.name=Pusher', '-c', 'user.email=p@example.com', 'commit', '--quiet', '-m', 'Pushed over HTTP'], { cwd: dir, env: gitEnv });
      const before = (await run('git', ['rev-parse', 'HEAD~1'], { cwd: dir, env: gitEnv })).stdout.trim();
      const after = (await run('git', ['rev-parse', 'HEAD'], { cwd: dir, env: gitEnv })).stdout.trim();
      const seen = delivered.length;
      await run('git', ['push', '--quiet', 'origin', 'HEAD:refs/heads/trunk'], { cwd: dir, env: gitEnv });
      await standin.settled();
      const pushes = delivered.slice(seen);
      expect(pushes).toHaveLength(1);
      expect(pushes[0]!.headers['X-GitHub-Event']).toBe('push');
      expect(JSON.parse(pushes[0]!.body)).toMatchObject({
        ref: 'refs/heads/trunk',
        before,
        after,
        head_commit: { message: 'Pushed over HTTP', added: ['pushed.html'], author: { name: 'Pusher', email: 'p@example.com' } },
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('delivers only to loopback addresses by default', async () => {
    const other = await startGitStandin({ providers: ['gitlab'] });
    try {
      await other.createRepo('a/b', { f: '1' });
      const token = other.issueToken('gitlab');
      await fetch(`${other.gitlab.url}/api/v4/projects/a%2Fb/hooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://ci.example.com/hook', token: 't', push_events: true }),
      });
      await other.commit('a/b', { f: '2' }, 'Change');
      expect(other.deliveries.at(-1)).toMatchObject({ status: null, error: expect.stringMatching(/only delivers to loopback/) });
      expect(other.env).toEqual({
        GITLAB_CLIENT_ID: 'standin-gitlab-client',
        GITLAB_CLIENT_SECRET: 'standin-gitlab-secret',
        GITLAB_URL: `${other.url}/gitlab`,
      });
      expect((await fetch(`${other.url}/github/api/v3/user`)).status).toBe(404);
    } finally {
      await other.close();
    }
  });
});
