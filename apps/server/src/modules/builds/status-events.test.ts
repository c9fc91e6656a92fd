import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { io as ioClient, type Socket } from 'socket.io-client';
import type { StepUpdateEvent } from '@gantry/contracts';
import { createTestApp, registerUser, createProject, bearer, until, type TestApp, insertGitAccount } from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import { REALTIME_PATH } from '../../platform/realtime.js';

const SPEC = `steps:
  First:
    commands:
      - echo first
  Second:
    commands:
      - echo second
`;

let t: TestApp;
let git: ReturnType<typeof createLocalGit>;
let url: string;
const sockets: Socket[] = [];

/** A project of its own owner, with a pipeline on the local git stand-in. */
async function projectWithPipeline(email: string, name: string) {
  const owner = await registerUser(t, email);
  const projectId = await createProject(t, owner.idToken, name);
  const account = await insertGitAccount(t, projectId);
  const repo = git.createRepo(`acme/${name}`, { 'gantry.yaml': SPEC }).url;
  const api = (method: 'GET' | 'POST', path: string, payload?: object) =>
    t.app.inject({ method, url: `/ms-ap/projects/${projectId}${path}`, headers: bearer(owner.idToken), payload });
  const created = await api('POST', '/pipelines', { name, gitAccountId: account!.id, repositoryUrl: repo, branchFilter: 'main', automatedTrigger: false });
  expect(created.statusCode, created.body).toBe(201);
  return { owner, projectId, pipelineId: created.json().pipelineId as string, api };
}

/** A socket of the user in the project's room, recording every step:update it receives. */
async function listener(idToken: string, projectId: string) {
  const sock = ioClient(url, { path: REALTIME_PATH, query: { Authorization: idToken }, transports: ['websocket'], reconnection: false });
  sockets.push(sock);
  const events: StepUpdateEvent[] = [];
  sock.on('step:update', (e: StepUpdateEvent) => events.push(e));
  expect(await sock.emitWithAck('project:join', projectId)).toEqual({ ok: true });
  return events;
}

beforeAll(async () => {
  git = createLocalGit();
  t = await createTestApp({}, { overrides: { pipelines: { gitAccess: git.access } } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
  git?.close();
});

describe('step status events', () => {
  it('reach the project room once the step status is written, and never another project', async () => {
    const a = await projectWithPipeline('steps-a@example.com', 'alpha');
    const b = await projectWithPipeline('steps-b@example.com', 'beta');
    const seenByA = await listener(a.owner.idToken, a.projectId);
    const seenByB = await listener(b.owner.idToken, b.projectId);

    // what the database held when each event arrived: the event follows the commit, so it is never ahead
    const storedAtEvent: { event: StepUpdateEvent; stored: string | null }[] = [];
    const checker = await listener(a.owner.idToken, a.projectId);
    const check = sockets.at(-1)!;
    check.on('step:update', (e: StepUpdateEvent) => {
      void a.api('GET', `/pipelines/${e.pipelineId}/builds/${e.buildId}`).then((res) => {
        storedAtEvent.push({ event: e, stored: res.json().steps.find((s: { name: string }) => s.name === e.step).status });
      });
    });

    // the build's own status as the room hears it: a browser refetches the project's metrics and minutes on each
    const buildStatuses: { buildId: string; status: string }[] = [];
    check.on('build:update', (e: { buildId: string; status: string }) => buildStatuses.push(e));
    const buildA = (await a.api('POST', `/pipelines/${a.pipelineId}/builds`, { ref: 'refs/heads/main' })).json().buildId as string;
    const buildB = (await b.api('POST', `/pipelines/${b.pipelineId}/builds`, { ref: 'refs/heads/main' })).json().buildId as string;
    const finished = (api: typeof a.api, pipelineId: string, buildId: string) =>
      until(
        async () => (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`)).json(),
        (build) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(build.status),
        `build ${buildId} to finish`,
      );
    expect((await finished(a.api, a.pipelineId, buildA)).status).toBe('SUCCEEDED');
    expect((await finished(b.api, b.pipelineId, buildB)).status).toBe('SUCCEEDED');

    const steps = (events: StepUpdateEvent[], buildId: string) => events.filter((e) => e.buildId === buildId).map((e) => `${e.step}:${e.status}`);
    await until(
      async () =>
        [
          steps(seenByA, buildA),
          steps(seenByB, buildB),
          storedAtEvent.length,
          buildStatuses.some((e) => e.buildId === buildA && e.status === 'SUCCEEDED'),
        ] as const,
      ([ofA, ofB, checked, ended]) => ofA.length === 4 && ofB.length === 4 && checked === 4 && ended,
      'the step events to arrive',
    );
    expect(steps(seenByA, buildA)).toEqual(['First:RUNNING', 'First:SUCCEEDED', 'Second:RUNNING', 'Second:SUCCEEDED']);
    expect(seenByA.find((e) => e.step === 'First' && e.status === 'RUNNING')).toMatchObject({ pipelineId: a.pipelineId, startDate: expect.any(String) });
    expect(seenByA.find((e) => e.step === 'First' && e.status === 'SUCCEEDED')).toMatchObject({ stopDate: expect.any(String) });
    expect(steps(seenByB, buildB)).toEqual(['First:RUNNING', 'First:SUCCEEDED', 'Second:RUNNING', 'Second:SUCCEEDED']);
    // isolation: neither room hears of the other project's build
    expect(seenByA.some((e) => e.buildId === buildB)).toBe(false);
    expect(seenByB.some((e) => e.buildId === buildA)).toBe(false);
    expect(checker.every((e) => e.buildId === buildA)).toBe(true);
    // running once claimed, and once its commit and steps are known; not again at each step (step:update tells those)
    expect(buildStatuses.filter((e) => e.buildId === buildA).map((e) => e.status)).toEqual(['RUNNING', 'RUNNING', 'SUCCEEDED']);
    for (const { event, stored } of storedAtEvent) {
      if (event.status === 'RUNNING') expect(stored, `${event.step} when its RUNNING event came`).not.toBeNull();
      else expect(stored, `${event.step} when its ${event.status} event came`).toBe(event.status);
    }
  });

  it("a socket in the project's room and a step's log room hears the step's every log line before the step's and the build's end", async () => {
    const p = await projectWithPipeline('steps-logs@example.com', 'delta');
    const sock = ioClient(url, { path: REALTIME_PATH, query: { Authorization: p.owner.idToken }, transports: ['websocket'], reconnection: false });
    sockets.push(sock);
    expect(await sock.emitWithAck('project:join', p.projectId)).toEqual({ ok: true });
    // on PostgreSQL a payload over 8 kB goes through an attachment (an insert before its notify): slowed here, so
    // that a last chunk of that size is still on its way when the end is emitted (the order is the adapter's to keep)
    if (process.env.TEST_DATABASE_URL)
      await t.app.services.database.executeSql(`
        create function slow_attachment() returns trigger language plpgsql as $$ begin perform pg_sleep(0.5); return new; end $$;
        create trigger slow_attachment before insert on socket_io_attachments for each row execute function slow_attachment();`);
    // 400 lines of 100 characters printed at once: 40 kB
    const big = "seq -f 'line %03g ..........................................................................................' 1 400";
    const cases = [
      { script: big, status: 'SUCCEEDED' },
      { script: `${big}; exit 3`, status: 'FAILED' },
      { script: `${big}; sleep 60`, status: 'ABORTED' },
    ];
    for (const c of cases) {
      git.commit(
        'acme/delta',
        { 'gantry.yaml': `steps:\n  First:\n    commands:\n      - sleep 1\n  Last:\n    commands:\n      - ${JSON.stringify(c.script)}\n` },
        c.status,
      );
      const buildId = (await p.api('POST', `/pipelines/${p.pipelineId}/builds`, { ref: 'refs/heads/main' })).json().buildId as string;
      const heard: string[] = [];
      sock.on('logs', (e: { buildId: string; step: string; seq: number }) => {
        if (e.buildId === buildId && e.step === 'Last') heard.push(`log ${e.seq}`);
      });
      sock.on('step:update', (e: StepUpdateEvent) => {
        if (e.buildId === buildId && e.step === 'Last' && e.status !== 'RUNNING') heard.push(`step ${e.status}`);
      });
      sock.on('build:update', (e: { buildId: string; status: string }) => {
        if (e.buildId === buildId && ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(e.status)) heard.push(`build ${e.status}`);
      });
      expect(await sock.emitWithAck('logs:subscribe', { projectId: p.projectId, pipelineId: p.pipelineId, buildId, step: 'Last' })).toEqual({ ok: true });
      const logs = async () =>
        (await p.api('GET', `/pipelines/${p.pipelineId}/builds/${buildId}/steps/Last/logs`)).json().chunks as { seq: number; text: string }[];
      if (c.status === 'ABORTED') {
        await until(logs, (chunks) => chunks.some((ch) => ch.text.includes('line 400')), 'the lines before the stop', 30_000, 20);
        expect((await p.api('POST', `/pipelines/${p.pipelineId}/builds/${buildId}/stop`)).statusCode).toBe(200);
      }
      const build = await until(
        async () => (await p.api('GET', `/pipelines/${p.pipelineId}/builds/${buildId}`)).json(),
        (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
        `build ${buildId} to finish`,
      );
      expect(build.status, build.errorMessage).toBe(c.status);
      const stored = await logs();
      expect(stored.map((ch) => ch.text).join('\n')).toContain('line 400');
      const lines = stored.map((ch) => `log ${ch.seq}`);
      await until(
        async () => heard,
        (h) => lines.every((l) => h.includes(l)) && h.includes(`step ${c.status}`) && h.includes(`build ${c.status}`),
        `every line and the end of the ${c.status} build`,
      );
      // the lines were all heard live (none came in the backlog: the step began after the subscription) and before both ends
      expect(heard.slice(0, lines.length).sort(), c.status).toEqual([...lines].sort());
      expect(heard.slice(lines.length).sort(), c.status).toEqual([`build ${c.status}`, `step ${c.status}`]);
      sock.off('logs').off('step:update').off('build:update');
    }
  });

  it('a socket cannot join the room of a project it is not a member of', async () => {
    const a = await projectWithPipeline('steps-c@example.com', 'gamma');
    const stranger = await registerUser(t, 'steps-stranger@example.com');
    const sock = ioClient(url, { path: REALTIME_PATH, query: { Authorization: stranger.idToken }, transports: ['websocket'], reconnection: false });
    sockets.push(sock);
    expect(await sock.emitWithAck('project:join', a.projectId)).toEqual({ ok: false, message: 'Project not found' });
  });
});
