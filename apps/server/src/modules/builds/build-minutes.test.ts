import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, type TestApp } from '../../../test/helpers.js';
import { gitAccounts } from '../git-accounts/git-accounts.tables.js';
import { pipelines } from '../pipelines/pipelines.tables.js';
import { createBuildsStore, monthOf } from './builds.store.js';

/**
 * The running build-minutes counter (what the plan check at trigger reads instead of summing every
 * build of the month) equals the sum over the month's builds, kept in the database itself.
 */
let t: TestApp;
let projectId: string;
let pipelineId: string;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerUser(t, 'minutes-owner@example.com');
  projectId = await createProject(t, owner.idToken, 'Minutes');
  const db = t.app.services.database.db;
  const [account] = await db
    .insert(gitAccounts)
    .values({ projectId, type: 'github', accountName: 'acme', externalId: '1', accessTokenSealed: t.app.services.secrets.seal('token') })
    .returning();
  const [pipeline] = await db
    .insert(pipelines)
    .values({
      projectId,
      gitAccountId: account!.id,
      name: 'minutes',
      repositoryUrl: 'https://example.com/acme/app',
      repositoryFullName: 'acme/app',
      branchFilter: 'main',
      automatedTrigger: false,
      workDir: '.',
      modifiedFiles: '',
      environmentVariables: [],
    })
    .returning();
  pipelineId = pipeline!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('build minutes counter', () => {
  it('equals the sum of the month’s build times however builds end, and is kept in the database', async () => {
    const store = createBuildsStore(t.app.services.database.db);
    const now = Date.now();
    const build = async (status: 'QUEUED' | 'RUNNING', startedMsAgo?: number) =>
      store.insertWithSteps(
        {
          projectId,
          pipelineId,
          branch: 'main',
          trigger: 'manual',
          status,
          ...(startedMsAgo === undefined ? {} : { startDate: new Date(now - startedMsAgo) }),
        },
        [],
      );
    const sum = async () => (await store.metrics(projectId, undefined, new Date(monthOf(new Date()).getTime() - 1))).buildTime;
    expect(await store.usedMs(projectId)).toBe(0);

    const succeeded = await build('RUNNING', 61_234);
    expect((await store.end(succeeded.id, null, { status: 'SUCCEEDED', errorMessage: null, stopDate: new Date(now) }))?.status).toBe('SUCCEEDED');
    const failed = await build('RUNNING', 5_001);
    await store.end(failed.id, ['RUNNING'], { status: 'FAILED', errorMessage: 'x', stopDate: new Date(now) });
    // a second end of the same build (a recovery sweep after the worker's own end) adds nothing
    expect(await store.end(failed.id, ['RUNNING'], { status: 'FAILED', errorMessage: 'again', stopDate: new Date(now + 60_000) })).toBeUndefined();
    // one stopped before it ran used no time
    const queued = await build('QUEUED');
    await store.end(queued.id, ['SCHEDULING', 'QUEUED'], { status: 'ABORTED', errorMessage: 'Stopped by user', stopDate: new Date(now) });
    // one still running counts once it ends
    const running = await build('RUNNING', 1_000);

    expect(await store.usedMs(projectId)).toBe(61_234 + 5_001);
    expect(await store.usedMs(projectId)).toBe(await sum());
    await store.end(running.id, null, { status: 'SUCCEEDED', errorMessage: null, stopDate: new Date(now) });
    expect(await store.usedMs(projectId)).toBe(61_234 + 5_001 + 1_000);
    expect(await store.usedMs(projectId)).toBe(await sum());

    // nothing of it lives in the process: another store over the same database (a restarted server) reads the same
    expect(await createBuildsStore(t.app.services.database.db).usedMs(projectId)).toBe(61_234 + 5_001 + 1_000);
    // the plan's limitations read the counter
    expect((await t.app.services.builds.limitations(projectId)).usedBuildMinutes).toBe(Number(((61_234 + 5_001 + 1_000) / 60_000).toFixed(2)));
    // last month's counter is another row
    expect(await store.usedMs(projectId, new Date(monthOf(new Date()).getTime() - 1))).toBe(0);
  });
});
