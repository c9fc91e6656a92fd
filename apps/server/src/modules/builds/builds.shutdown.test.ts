import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, afterAll } from 'vitest';
import { io as ioClient } from 'socket.io-client';
import { createTestApp, registerUser, createProject, bearer, until, type TestApp, insertGitAccount } from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import { REALTIME_PATH } from '../../platform/realtime.js';
import { INTERRUPTED } from './builds.jobs.js';

/**
 * Stopping the server while a build prints (issue 15): every line the step printed up to the stop is
 * in the stored log, the build says it was interrupted, the stop waits for it and for a connected
 * socket, and nothing is written to the database after it closed (the setup file fails the test on
 * any unhandled rejection, such as "PGlite is closed").
 */
describe('a server stopped while a build prints', () => {
  const git = createLocalGit();
  // the step also appends each line to a file, to compare what it printed with what was stored
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-printed-'));
  fs.chmodSync(outDir, 0o777);
  const printed = path.join(outDir, 'printed.txt');
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    git.close();
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('stores every printed line, ends the build as interrupted and only then closes', async () => {
    const spec = `steps:\n  Print:\n    commands:\n      - 'i=0; while true; do i=$((i+1)); echo "line $i"; echo "line $i" >> ${printed}; done'\n`;
    const repoUrl = git.createRepo('acme/loud', { 'gantry.yaml': spec }).url;
    t = await createTestApp({ BUILD_SANDBOX: 'none' }, { overrides: { pipelines: { gitAccess: git.access } } });
    const owner = await registerUser(t, 'shutdown@example.com');
    const projectId = await createProject(t, owner.idToken, 'Loud');
    const account = await insertGitAccount(t, projectId);
    const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t!.app.inject({ method, url: `/ms-ap/projects/${projectId}${url}`, headers: bearer(owner.idToken), payload });
    const created = await api('POST', '/pipelines', {
      name: 'loud',
      gitAccountId: account!.id,
      repositoryUrl: repoUrl,
      branchFilter: 'main',
      automatedTrigger: false,
    });
    expect(created.statusCode, created.body).toBe(201);
    const pipelineId = created.json().pipelineId as string;
    const started = await api('POST', `/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' });
    expect(started.statusCode, started.body).toBe(201);
    const buildId = started.json().buildId as string;

    // a client following the log live must not hold the stop open
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const sock = ioClient(url, { path: REALTIME_PATH, query: { Authorization: owner.idToken }, transports: ['websocket'], reconnection: false });
    const disconnected = new Promise<string>((resolve) => sock.on('disconnect', resolve));
    expect(await sock.emitWithAck('logs:subscribe', { projectId, pipelineId, buildId, step: 'Print', type: 'pipeline' })).toEqual({ ok: true });

    // stop while it prints, with lines in the sink's buffer and chunks being written
    await until(
      async () => (fs.existsSync(printed) ? fs.readFileSync(printed, 'utf8').length : 0),
      (n) => n > 20_000,
      'the step to print',
    );
    await t.stopApp();
    expect(await disconnected).toBe('transport close'); // socket.io ends its sockets without a goodbye on close

    const db = t.app.services.database;
    const build = (await db.executeSql(`select status, error_message from builds where id = '${buildId}'`)).rows[0];
    expect(build).toEqual({ status: 'FAILED', error_message: INTERRUPTED });
    const step = (await db.executeSql(`select status, error_message from build_steps where build_id = '${buildId}'`)).rows[0];
    expect(step).toEqual({ status: 'FAILED', error_message: INTERRUPTED });

    const chunks = (await db.executeSql(`select seq, text from build_logs where build_id = '${buildId}' and step = 'Print' order by seq`)).rows as {
      seq: number;
      text: string;
    }[];
    expect(chunks.map((c) => Number(c.seq))).toEqual(chunks.map((_, i) => i));
    const lines = chunks
      .map((c) => c.text)
      .join('\n')
      .split('\n')
      .filter((l) => l.startsWith('line '));
    const stored = lines.length;
    expect(lines).toEqual(Array.from({ length: stored }, (_, i) => `line ${i + 1}`));
    // the file gets each line just after stdout: the stop may fall between the two
    const inFile = fs.readFileSync(printed, 'utf8').split('\n').filter(Boolean).length;
    expect(stored === inFile || stored === inFile + 1, `stored ${stored} lines, the step printed ${inFile}`).toBe(true);
    expect(chunks.at(-1)!.text.split('\n').at(-1)).toBe(`[gantry] ${INTERRUPTED}`);
  }, 120_000);
});
