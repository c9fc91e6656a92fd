import { describe, it, expect, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSmtp, freePort, linkFromMail } from '@gantry/test-support';
import { startGitStandin } from '@gantry/test-support/git-standin/index';

/**
 * A real crash: the Gantry process is killed with SIGKILL in the middle of a build; after a restart on
 * the same data dir the build is not left RUNNING but ends FAILED with the reason.
 */
const serverMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');
const tsx = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../node_modules/tsx/dist/cli.mjs');

describe('a server killed during a build', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-crash-'));
  let child: ChildProcess | undefined;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    if (child?.pid) try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    for (const c of cleanups) await c();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves no build stuck in RUNNING after a restart', async () => {
    const smtp = await startSmtp();
    const standin = await startGitStandin();
    cleanups.push(() => smtp.close(), () => standin.close());
    await standin.createRepo('acme/slow', { 'gantry.yaml': 'steps:\n  Slow:\n    commands:\n      - echo started\n      - sleep 120\n' });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env, ...standin.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base, GANTRY_DATA_DIR: dataDir,
      SMTP_URL: smtp.url, GANTRY_LOG_LEVEL: 'warn', GANTRY_RATE_LIMIT: 'false', DATABASE_URL: '',
    };
    const start = async () => {
      child = spawn(process.execPath, [tsx, serverMain], { env, detached: true, stdio: 'ignore' });
      for (let i = 0; i < 600; i++) {
        if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('server did not start');
    };
    const call = async (method: string, url: string, body?: unknown, token?: string) => {
      const res = await fetch(base + url, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body ? JSON.stringify(body) : undefined });
      const json = (await res.json()) as any;
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };

    await start();
    await call('POST', '/ms-usermanagement/auth/sign-up', { username: 'crash@example.com', password: 'Crash1234', firstName: 'C', lastName: 'R' });
    const code = decodeURIComponent(linkFromMail(await smtp.waitFor('crash@example.com'), '/account/verify/').split('/').pop()!);
    await call('POST', '/ms-usermanagement/auth/activate', { username: 'crash@example.com', code });
    const { idToken } = await call('POST', '/ms-usermanagement/auth/login', { username: 'crash@example.com', password: 'Crash1234' });
    const { id: projectId } = await call('POST', '/ms-project/projects', { name: 'Crash', description: 'crash test' }, idToken);
    const p = `/ms-ap/projects/${projectId}`;
    const { gitAccountId } = await call('POST', `${p}/git-accounts`, { code: standin.issueCode('github'), type: 'github' }, idToken);
    const repo = (await call('GET', `${p}/git-accounts/${gitAccountId}/repositories`, undefined, idToken)).repositories[0];
    const { pipelineId } = await call('POST', `${p}/pipelines`, { name: 'slow', gitAccountId, repositoryUrl: repo.url, branchFilter: 'main', automatedTrigger: false }, idToken);
    const { buildId } = await call('POST', `${p}/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' }, idToken);
    const buildUrl = `${p}/pipelines/${pipelineId}/builds/${buildId}`;
    for (let i = 0; i < 200 && (await call('GET', buildUrl, undefined, idToken)).status !== 'RUNNING'; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await call('GET', buildUrl, undefined, idToken)).status).toBe('RUNNING');

    process.kill(-child!.pid!, 'SIGKILL'); // the server and everything it started
    await new Promise((r) => setTimeout(r, 500));
    await start();
    let build: any;
    for (const end = Date.now() + 60_000; Date.now() < end;) {
      build = await call('GET', buildUrl, undefined, idToken);
      if (build.status !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(build.status).toBe('FAILED');
    expect(build.errorMessage).toMatch(/worker running it stopped/);
    expect(build.steps[0].status).toBe('FAILED');
  }, 150_000);
});
