import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { io as ioClient } from 'socket.io-client';
import { REALTIME_PATH } from '../src/platform/realtime.js';
import { bearer, pipelineOnApi, startRoles, until } from './helpers.js';
import { createLocalGit } from './local-git.js';

/**
 * `gantry serve` and `gantry worker` on one PostgreSQL database, as the README runs them: a build triggered on the api
 * process is run by the worker, and its user watches it on a socket of the api process, live.
 */
const SPEC = 'steps:\n  Build:\n    commands:\n      - for i in 1 2 3; do echo live-$i; sleep 0.2; done\n';
let git: ReturnType<typeof createLocalGit>;
let roles: Awaited<ReturnType<typeof startRoles>>;
let api: FastifyInstance;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-worker-live-'));

beforeAll(async () => {
  git = createLocalGit();
  roles = await startRoles(() => ({ GANTRY_DATA_DIR: dataDir }), { overrides: { pipelines: { gitAccess: git.access } } });
  api = roles.api;
}, 60_000);
afterAll(async () => {
  await roles?.close();
  git?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('an api process and a worker on PostgreSQL', () => {
  it.runIf(process.env.TEST_DATABASE_URL)("a build run by the worker: its log lines and its end reach the user's socket on the api, live", async () => {
    const { p, projectId, pipelineId, idToken } = await pipelineOnApi(api, git, { email: 'worker-live@example.com', name: 'Live', spec: SPEC });

    const url = await api.listen({ port: 0, host: '127.0.0.1' });
    const sock = ioClient(url, { path: REALTIME_PATH, query: { Authorization: idToken }, transports: ['websocket'], reconnection: false });
    const heard: string[] = [];
    sock.on('build:update', (e: { status: string }) => heard.push(e.status));
    sock.on('logs', (c: { text: string }) => heard.push(c.text));
    expect(await sock.emitWithAck('project:join', projectId)).toEqual({ ok: true });
    const buildId = (
      await api.inject({ method: 'POST', url: `${p}/pipelines/${pipelineId}/builds`, headers: bearer(idToken), payload: { ref: 'refs/heads/main' } })
    ).json().buildId as string;
    expect(await sock.emitWithAck('logs:subscribe', { projectId, pipelineId, buildId, step: 'Build', type: 'pipeline' })).toEqual({ ok: true });
    // heard while the step still runs (its lines come 0.2 s apart), not read back from the store afterwards
    await until(
      async () => heard,
      (h) => h.some((x) => x.includes('live-1')),
      'a live line from the worker',
      30_000,
      20,
    );
    const stored = (await api.inject({ url: `${p}/pipelines/${pipelineId}/builds/${buildId}`, headers: bearer(idToken) })).json();
    expect(stored.status).toBe('RUNNING');
    await until(
      async () => heard,
      (h) => h.includes('SUCCEEDED'),
      "the build's end from the worker",
      30_000,
      20,
    );
    expect(heard.join('\n')).toMatch(/live-1[\s\S]*live-2[\s\S]*live-3[\s\S]*SUCCEEDED/);
    sock.close();
  });
});
