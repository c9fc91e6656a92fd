import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { describe, it, expect, afterAll } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestApp, registerUser, createProject, bearer, until, type TestApp, insertGitAccount } from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import { loadConfig } from '../../config.js';
import { buildApp } from '../../app.js';

/**
 * A build's workspace is removed after its end is told; a process that dies in between leaves it
 * behind. The next start removes every workspace whose build has ended (or is gone), and keeps the
 * one of a build still running (in another process, or left to the recovery).
 */
describe('the workspaces a crash left behind', () => {
  const git = createLocalGit();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-sweep-'));
  const env = { GANTRY_DATA_DIR: dataDir, BUILD_SANDBOX: 'none' };
  const overrides = { pipelines: { gitAccess: git.access } };
  let t: TestApp | undefined;
  let restarted: FastifyInstance | undefined;
  afterAll(async () => {
    await restarted?.close();
    await t?.close();
    git.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('are removed at the next start, but for a running build', async () => {
    const repoUrl = git.createRepo('acme/sweep', { 'gantry.yaml': 'steps:\n  Build:\n    commands:\n      - echo built > out.txt\n' }).url;
    t = await createTestApp(env, { overrides });
    const owner = await registerUser(t, 'sweep@example.com');
    const projectId = await createProject(t, owner.idToken, 'Sweep');
    const account = await insertGitAccount(t, projectId);
    const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t!.app.inject({ method, url: `/ms-ap/projects/${projectId}${url}`, headers: bearer(owner.idToken), payload });
    const created = await api('POST', '/pipelines', {
      name: 'sweep',
      gitAccountId: account.id,
      repositoryUrl: repoUrl,
      branchFilter: 'main',
      automatedTrigger: false,
    });
    expect(created.statusCode, created.body).toBe(201);
    const pipelineId = created.json().pipelineId as string;
    const build = async () => {
      const res = await api('POST', `/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' });
      expect(res.statusCode, res.body).toBe(201);
      const done = await until(
        async () => (await api('GET', `/pipelines/${pipelineId}/builds/${res.json().buildId}`)).json(),
        (b) => ['SUCCEEDED', 'FAILED'].includes(b.status),
        'the build to end',
      );
      expect(done.status, done.errorMessage).toBe('SUCCEEDED');
      return done.id as string;
    };
    const ended = await build();
    const running = await build();
    const workspaces = path.join(dataDir, 'workspaces');
    // a stop waits for the clean-up of the builds that ended
    await t.stopApp();
    expect(fs.readdirSync(workspaces)).toEqual([]);

    // what a crash between a build's end and its clean-up leaves (files a step made unwritable included),
    // a workspace of a build that is gone, and one of a build still running elsewhere
    const gone = crypto.randomUUID();
    await t.app.services.database.executeSql(
      `update builds set status = 'RUNNING', stop_date = null, worker_id = 'other:1', heartbeat_at = now() + interval '1 hour' where id = '${running}'`,
    );
    for (const id of [ended, gone, running]) {
      fs.mkdirSync(path.join(workspaces, id, 'src', 'locked'), { recursive: true });
      fs.writeFileSync(path.join(workspaces, id, 'src', 'locked', 'file.txt'), 'left');
      fs.chmodSync(path.join(workspaces, id, 'src', 'locked'), 0o500);
      fs.mkdirSync(path.join(workspaces, `${id}.gantry`));
    }
    fs.mkdirSync(path.join(workspaces, 'not-a-build'));

    restarted = await buildApp(
      loadConfig({
        GANTRY_LOG_LEVEL: 'silent',
        GANTRY_RATE_LIMIT: 'false',
        GANTRY_SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
        PUBLIC_URL: 'http://gantry.test',
        ...env,
      }),
      { overrides, database: t.app.services.database },
    );
    await restarted.ready();
    const left = await until(
      async () => fs.readdirSync(workspaces).sort(),
      (names) => [ended, gone].every((id) => !names.includes(id) && !names.includes(`${id}.gantry`)),
      'the sweep',
    );
    expect(left).toEqual([running, `${running}.gantry`, 'not-a-build'].sort());
    expect(fs.readFileSync(path.join(workspaces, running, 'src', 'locked', 'file.txt'), 'utf8')).toBe('left');
  }, 120_000);
});
