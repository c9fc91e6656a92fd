import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, type TestApp } from '../../../test/helpers.js';
import { gitAccounts } from '../git-accounts/git-accounts.tables.js';
import { pipelines } from '../pipelines/pipelines.tables.js';
import { createBuildsStore, monthOf } from './builds.store.js';
import { buildLogs, builds } from './builds.tables.js';
import { eq } from 'drizzle-orm';

/**
 * The running build-minutes counter (what the plan check at trigger reads instead of summing every
 * build of the month) equals the sum over the month's builds, kept in the database itself; and the
 * writes that go with a step's end (its last log chunk, the next step's start, the build's end).
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
    // but what a trigger checks (and the usage shown) counts its time so far: two builds at once use the minutes twice as fast
    // (shown in minutes to two places: 0.6 s)
    const usedNow = (await t.app.services.builds.limitations(projectId)).usedBuildMinutes * 60_000;
    expect(usedNow).toBeGreaterThan(61_234 + 5_001 + 1_000 - 600);
    expect(usedNow).toBeLessThan(61_234 + 5_001 + 1_000 + (Date.now() - now) + 600);
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

describe("a step's end", () => {
  it("is written with its last log chunk and the next step's start, and the last one with the build's end only when the build ends", async () => {
    const db = t.app.services.database.db;
    const store = createBuildsStore(db);
    const started = new Date(Date.now() - 3_000);
    const build = await store.insertWithSteps({ projectId, pipelineId, branch: 'main', trigger: 'manual', status: 'RUNNING', startDate: started }, []);
    const planned = ['First', 'Second'].map((name, position) => ({ name, title: null, stage: null, type: 'build', position }));
    const { steps } = await store.resolved(build.id, { commitSha: 'abc' }, [{ ...planned[0]!, status: 'RUNNING', startDate: started }, planned[1]!]);
    expect(steps.map((s) => [s.name, s.status])).toEqual([
      ['First', 'RUNNING'],
      ['Second', null],
    ]);
    const logs = async () => (await db.select().from(buildLogs).where(eq(buildLogs.buildId, build.id))).map((l) => `${l.step}#${l.seq}:${l.text}`).sort();
    const rows = async () => Object.fromEntries((await store.steps(build.id)).map((s) => [s.name, s]));

    const between = new Date(Date.now() - 2_000);
    let told = 0;
    await store.stepsMoved(
      build.id,
      { name: 'First', status: 'SUCCEEDED', stopDate: between },
      { name: 'Second', startDate: between },
      { seq: 3, text: "it's\ndone" },
      () => told++,
    );
    expect(told).toBe(1);
    let now = await rows();
    expect([now.First!.status, now.First!.startDate, now.First!.stopDate, now.First!.errorMessage]).toEqual(['SUCCEEDED', started, between, null]);
    expect([now.Second!.status, now.Second!.startDate, now.Second!.stopDate]).toEqual(['RUNNING', between, null]);
    expect(await logs()).toEqual(["First#3:it's\ndone"]);

    // a build that has already moved on: neither it, nor its step, nor the chunk is written
    const stop = new Date();
    const last = { ended: { name: 'Second', status: 'FAILED' as const, stopDate: stop, errorMessage: 'exit 2' }, chunk: { seq: 0, text: 'late' } };
    expect(await store.end(build.id, ['QUEUED'], { status: 'FAILED', stopDate: stop }, last, () => told++)).toBeUndefined();
    expect(told).toBe(1);
    expect((await rows()).Second!.status).toBe('RUNNING');
    expect(await logs()).toEqual(["First#3:it's\ndone"]);
    const usedBefore = await store.usedMs(projectId);

    const done = await store.end(build.id, ['RUNNING'], { status: 'FAILED', errorMessage: 'Step Second failed', stopDate: stop }, last, () => told++);
    expect(told).toBe(2);
    expect([done?.id, done?.status, done?.stopDate, done?.startDate, done?.commitSha]).toEqual([build.id, 'FAILED', stop, started, 'abc']);
    now = await rows();
    expect([now.Second!.status, now.Second!.startDate, now.Second!.stopDate, now.Second!.errorMessage]).toEqual(['FAILED', between, stop, 'exit 2']);
    expect(now.First!.status).toBe('SUCCEEDED');
    expect(await logs()).toEqual(["First#3:it's\ndone", 'Second#0:late']);
    // and its time counted once
    expect(await store.usedMs(projectId)).toBe(usedBefore + (stop.getTime() - started.getTime()));
  });
});

describe('build numbers', () => {
  it('are one more each time, never given twice to concurrent triggers, nor reused after a delete, and follow builds written with a number', async () => {
    const store = createBuildsStore(t.app.services.database.db);
    const db = t.app.services.database.db;
    const [pipeline] = await db.select().from(pipelines).where(eq(pipelines.id, pipelineId));
    const [other] = await db
      .insert(pipelines)
      .values({ ...pipeline!, id: undefined, name: 'numbers', createdAt: undefined, updatedAt: undefined })
      .returning();
    const insert = (status: 'QUEUED' | 'RUNNING' = 'QUEUED') =>
      store.insertWithSteps({ projectId, pipelineId: other!.id, branch: 'main', trigger: 'manual', status }, []);
    const concurrent = await Promise.all(Array.from({ length: 12 }, () => insert()));
    expect(concurrent.map((b) => b.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    // the latest deleted: its number is not given again
    await db.delete(builds).where(eq(builds.id, concurrent.find((b) => b.number === 12)!.id));
    expect((await insert()).number).toBe(13);
    // a build written with a number of its own (an import, a seed): the next trigger follows it
    await db.insert(builds).values({ projectId, pipelineId: other!.id, branch: 'main', trigger: 'manual', status: 'SUCCEEDED', number: 40 });
    expect((await insert()).number).toBe(41);
    // steps written with the build, in one transaction
    const withSteps = await store.insertWithSteps({ projectId, pipelineId: other!.id, branch: 'main', trigger: 'manual', status: 'QUEUED' }, [
      { name: 'Build', position: 0, type: 'build' },
    ]);
    expect(withSteps.number).toBe(42);
    expect(await store.steps(withSteps.id)).toHaveLength(1);
  });
});
