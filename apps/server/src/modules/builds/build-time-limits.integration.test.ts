import { describe, it, expect, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, bearer, until, type TestApp, insertGitAccount } from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import { maxDurationMessage, minutesRanOutMessage } from './build-time-limits.js';

/**
 * A running build is stopped FAILED, with the reason in its log, its step and itself, when it runs past the
 * instance's maximum duration and when its project's build minutes run out while it runs (the plan was only
 * checked at the trigger: endless builds held every slot of the instance).
 */
describe('the time limits of a running build', () => {
  const git = createLocalGit();
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
    git.close();
  });

  /** A project with a pipeline whose one step sleeps 8 s; answers how to build it and read the result. */
  async function sleeper(env: Record<string, string>, name: string) {
    const t = await createTestApp(env, { overrides: { pipelines: { gitAccess: git.access } } });
    apps.push(t);
    const owner = await registerUser(t, `${name}@example.com`);
    const projectId = await createProject(t, owner.idToken, name);
    const gitAccountId = (await insertGitAccount(t, projectId)).id;
    const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url: `/ms-ap/projects/${projectId}${url}`, headers: bearer(owner.idToken), payload });
    const repoUrl = git.createRepo(`acme/${name}`, { 'gantry.yaml': 'steps:\n  Sleep:\n    commands:\n      - sleep 8\n' }).url;
    const created = await api('POST', '/pipelines', { name, gitAccountId, repositoryUrl: repoUrl, branchFilter: 'main', automatedTrigger: false });
    expect(created.statusCode, created.body).toBe(201);
    const pipelineId = created.json().pipelineId as string;
    return {
      t,
      projectId,
      async build() {
        const started = await api('POST', `/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' });
        expect(started.statusCode, started.body).toBe(201);
        const buildId = started.json().buildId as string;
        const t0 = Date.now();
        const done = await until(
          async () => (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`)).json(),
          (b) => !['QUEUED', 'SCHEDULING', 'RUNNING'].includes(b.status),
          'the build to end',
          30_000,
        );
        const steps = (await t.app.services.database.executeSql(`select status, error_message from build_steps where build_id = '${buildId}'`)).rows;
        const log = (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}/steps/Sleep/logs`)).body;
        return { done, steps, log, ms: Date.now() - t0 };
      },
    };
  }

  it('stops a build that runs past its maximum duration', async () => {
    const p = await sleeper({ GANTRY_BUILD_MAX_MINUTES: '0.03' }, 'slow');
    const { done, steps, log, ms } = await p.build();
    const message = maxDurationMessage(0.03 * 60_000);
    expect(message).toBe('The build ran past its maximum duration of 0.03 minutes (GANTRY_BUILD_MAX_MINUTES) and was stopped');
    expect([done.status, done.errorMessage]).toEqual(['FAILED', message]);
    expect(steps).toEqual([{ status: 'FAILED', error_message: message }]);
    expect(log).toContain(`[gantry] ${message}`);
    expect(ms).toBeLessThan(7000);
  });

  it("stops a build when its project's build minutes run out while it runs", async () => {
    const p = await sleeper({}, 'spender');
    // the Starter plan's 500 minutes, all but 1.5 s used by the month's earlier builds
    await p.t.app.services.database.executeSql(
      `insert into build_minutes (project_id, month, ms) values ('${p.projectId}', date_trunc('month', now(), 'UTC'), ${500 * 60_000 - 1500})`,
    );
    const { done, steps, log, ms } = await p.build();
    const message = minutesRanOutMessage(500 * 60_000);
    expect([done.status, done.errorMessage]).toEqual(['FAILED', message]);
    expect(steps).toEqual([{ status: 'FAILED', error_message: message }]);
    expect(log).toContain(`[gantry] ${message}`);
    expect(ms).toBeLessThan(7000);
  });

  it("stops two builds running at once by about half of what was left: each counts the other's time", async () => {
    const p = await sleeper({ GANTRY_JOB_CONCURRENCY: '2' }, 'twins');
    // 6 s left of the Starter plan's 500 minutes
    await p.t.app.services.database.executeSql(
      `insert into build_minutes (project_id, month, ms) values ('${p.projectId}', date_trunc('month', now(), 'UTC'), ${500 * 60_000 - 6000})`,
    );
    const both = await Promise.all([p.build(), p.build()]);
    const message = minutesRanOutMessage(500 * 60_000);
    for (const { done, log } of both) {
      expect([done.status, done.errorMessage]).toEqual(['FAILED', message]);
      expect(log).toContain(`[gantry] ${message}`);
    }
    // both ran at once: their 6 s were spent in about 3 (each alone would have run 6)
    const [a, b] = both.map(({ done }) => [Date.parse(done.startDate), Date.parse(done.stopDate)] as const);
    expect(Math.max(a![0], b![0])).toBeLessThan(Math.min(a![1], b![1]));
    for (const [start, stop] of [a!, b!]) expect(stop - start).toBeLessThan(4500);
  });
});
