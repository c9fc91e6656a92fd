import { describe, it, expect, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startSmtp, freePort, linkFromMail } from '@gantry/test-support';
import { startGitStandin } from '@gantry/test-support/git-standin/index';
import { until } from './helpers.js';
import { INTERRUPTED } from '../src/modules/builds/builds.jobs.js';

/**
 * The real server process during a build: killed with SIGKILL, after a restart on the same data dir
 * the build is not left RUNNING but ends FAILED with the reason; stopped with SIGTERM, it ends the
 * build itself as interrupted (its log stored) and exits 0. Every wait is on state, not on time.
 */
const serverMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');
// tsx as a loader inside the server's own process (as `npm start` runs it): the tsx CLI would be a parent that
// SIGKILLs the server when it does not acknowledge a relayed signal within 60 ms — a loaded machine misses that
const tsxLoader = pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../node_modules/tsx/dist/loader.mjs')).href;
const SLOW_SPEC = 'steps:\n  Slow:\n    commands:\n      - echo started\n      - sleep 120\n';

describe('a server stopped during a build', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-crash-'));
  let child: ChildProcess | undefined;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | undefined;
  let stderr = '';
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    if (child?.pid && child.exitCode === null && child.signalCode === null)
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    await exited;
    for (const c of cleanups) await c();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  let base = '';
  let env: NodeJS.ProcessEnv = {};
  const start = async () => {
    stderr = '';
    child = spawn(process.execPath, ['--import', tsxLoader, serverMain], { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (c) => {
      stderr += c;
    });
    const proc = child;
    exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
    await until(
      async () =>
        proc.exitCode !== null
          ? 'exited'
          : await fetch(`${base}/healthz`).then(
              (r) => (r.ok ? 'up' : 'starting'),
              () => 'starting',
            ),
      (s) => s !== 'starting',
      'the server to start',
      120_000,
      200,
    ).then((s) => {
      if (s === 'exited') throw new Error(`the server exited at start: ${stderr}`);
    });
  };
  const call = async (method: string, url: string, body?: unknown, token?: string) => {
    const res = await fetch(base + url, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as any;
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  let idToken = '';
  let pipelineUrl = '';
  /** Starts a build of the slow pipeline and waits until its step runs; answers the build's URL. */
  const slowBuild = async () => {
    const { buildId } = await call('POST', `${pipelineUrl}/builds`, { ref: 'refs/heads/main' }, idToken);
    const buildUrl = `${pipelineUrl}/builds/${buildId}`;
    await until(
      () => call('GET', buildUrl, undefined, idToken),
      (b) => b.status === 'RUNNING' && b.steps[0]?.status === 'RUNNING',
      'the build to run',
    );
    return buildUrl;
  };

  it('after SIGKILL, a restart leaves no build stuck in RUNNING', async () => {
    const smtp = await startSmtp();
    const standin = await startGitStandin();
    cleanups.push(
      () => smtp.close(),
      () => standin.close(),
    );
    await standin.createRepo('acme/slow', { 'gantry.yaml': SLOW_SPEC });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      ...process.env,
      ...standin.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      GANTRY_DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      GANTRY_LOG_LEVEL: 'warn',
      GANTRY_RATE_LIMIT: 'false',
      DATABASE_URL: '',
      BUILD_SANDBOX: 'none',
    };

    await start();
    await call('POST', '/ms-usermanagement/auth/sign-up', { username: 'crash@example.com', password: 'Crash1234', firstName: 'C', lastName: 'R' });
    const code = decodeURIComponent(
      linkFromMail(await smtp.waitFor('crash@example.com', 60_000), '/account/verify/')
        .split('/')
        .pop()!,
    );
    await call('POST', '/ms-usermanagement/auth/activate', { username: 'crash@example.com', code });
    idToken = (await call('POST', '/ms-usermanagement/auth/login', { username: 'crash@example.com', password: 'Crash1234' })).idToken;
    const { id: projectId } = await call('POST', '/ms-project/projects', { name: 'Crash', description: 'crash test' }, idToken);
    const p = `/ms-ap/projects/${projectId}`;
    const { gitAccountId } = await call('POST', `${p}/git-accounts`, { code: standin.issueCode('github'), type: 'github' }, idToken);
    const repo = (await call('GET', `${p}/git-accounts/${gitAccountId}/repositories`, undefined, idToken)).repositories[0];
    const { pipelineId } = await call(
      'POST',
      `${p}/pipelines`,
      { name: 'slow', gitAccountId, repositoryUrl: repo.url, branchFilter: 'main', automatedTrigger: false },
      idToken,
    );
    pipelineUrl = `${p}/pipelines/${pipelineId}`;
    const buildUrl = await slowBuild();

    process.kill(-child!.pid!, 'SIGKILL'); // the server and everything it started
    await exited;
    await start();
    // recovery fails it once its heartbeat is stale (20 s) on the next sweep (every 10 s)
    const build = await until(
      () => call('GET', buildUrl, undefined, idToken),
      (b) => b.status !== 'RUNNING',
      'recovery of the build',
      120_000,
      500,
    );
    expect(build.status).toBe('FAILED');
    expect(build.errorMessage).toMatch(/worker running it stopped/);
    expect(build.steps[0].status).toBe('FAILED');
  }, 300_000);

  it('after SIGTERM, the build ended as interrupted with its log, and the server exited 0', async () => {
    const buildUrl = await slowBuild();
    process.kill(child!.pid!, 'SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });

    await start();
    const build = await call('GET', buildUrl, undefined, idToken);
    expect(build).toMatchObject({ status: 'FAILED', errorMessage: INTERRUPTED });
    expect(build.steps[0]).toMatchObject({ status: 'FAILED' });
    const log = (await call('GET', `${buildUrl}/steps/Slow/logs`, undefined, idToken)).chunks.map((c: { text: string }) => c.text).join('\n');
    expect(log).toContain('started');
    expect(log).toContain(`[gantry] ${INTERRUPTED}`);
  }, 300_000);
});
