import fs from 'node:fs';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, bearer, until, insertGitAccount, type TestApp } from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import type { GitAccess } from '../pipelines/git-access.js';
import { UUID } from './builds.service.js';
import type { BuildsStore as Store } from './builds.store.js';
import type { BillingService } from '../billing/billing.port.js';

type BuildsStore = (store: Store) => Store;

/** The host processes whose command line names this build (its box: bwrap binds the build's workspace). */
function boxesOf(buildId: string) {
  const found: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes('gantry-step-runner') && cmdline.includes(buildId)) found.push(Number(pid));
    } catch {
      /* gone meanwhile */
    }
  }
  return found;
}

/** The builds of this app whose box runs now: the workspace each build-step runner binds (its build's id). */
function boxedBuilds() {
  const workspaces = `${dataDir}/workspaces/`;
  const ids = new Set<string>();
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes('gantry-step-runner')) continue;
      for (const arg of cmdline.split('\0')) if (arg.startsWith(workspaces) && UUID.test(arg.slice(workspaces.length))) ids.add(arg.slice(workspaces.length));
    } catch {
      /* gone meanwhile */
    }
  }
  return [...ids];
}

let t: TestApp;
let dataDir: string;
let git: ReturnType<typeof createLocalGit>;
let idToken: string;
let projectId: string;
let gitAccountId: string;
let repoUrl: string;
let twoStepsUrl: string;
let greetUrl: string;
// the provider's answer to the branch's commit, held until the test lets it through
let commitAsked: () => void = () => undefined;
let answerCommit: Promise<void> = Promise.resolve();
// the statement that ends one step and starts the next, held until the test lets it through
let stepsMoving: () => void = () => undefined;
let movesLetThrough: Promise<void> = Promise.resolve();
let failNextMove = false;
// when this test file's project's plan was read (billing.limitations), in the server's clock
const planReads: number[] = [];

beforeAll(async () => {
  git = createLocalGit();
  repoUrl = git.createRepo('acme/steps', { 'gantry.yaml': 'steps:\n  Build:\n    commands:\n      - echo built\n' }).url;
  greetUrl = git.createRepo('acme/greet', { 'gantry.yaml': 'steps:\n  Greet:\n    commands:\n      - echo "greeting=$GREETING"\n' }).url;
  twoStepsUrl = git.createRepo('acme/two-steps', {
    'gantry.yaml': 'steps:\n  First:\n    commands:\n      - echo one\n  Second:\n    commands:\n      - touch moved-on\n      - echo two\n',
  }).url;
  const held: GitAccess = {
    async clientFor(projectId, gitAccountId) {
      const real = await git.access.clientFor(projectId, gitAccountId);
      const client = Object.create(real.client) as typeof real.client;
      client.getCommit = async (...args) => {
        commitAsked();
        await answerCommit;
        return real.client.getCommit(...args);
      };
      return { ...real, client };
    },
  };
  // the write that ends a step and starts the next, held while the test asks
  const heldMoves: BuildsStore = (store) => ({
    ...store,
    async stepsMoved(...args) {
      stepsMoving();
      await movesLetThrough;
      if (failNextMove) {
        failNextMove = false;
        throw new Error('the database went away');
      }
      return store.stepsMoved(...args);
    },
  });
  // the plan's reads, counted
  const counted = (billing: BillingService): BillingService => ({
    ...billing,
    limitations(id) {
      if (id === projectId) planReads.push(Date.now());
      return billing.limitations(id);
    },
  });
  t = await createTestApp(
    {},
    {
      overrides: { pipelines: { gitAccess: held, buildsStore: heldMoves, billing: counted } },
      beforeReady: async (_app, config) => void (dataDir = config.dataDir),
    },
  );
  idToken = (await registerUser(t, 'start-owner@example.com')).idToken;
  projectId = await createProject(t, idToken, 'Start');
  gitAccountId = (await insertGitAccount(t, projectId))!.id;
});
afterAll(async () => {
  await t?.close();
  git?.close();
});

const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-ap/projects/${projectId}${url}`, headers: bearer(idToken), payload });
async function pipelineNamed(name: string, repositoryUrl = repoUrl) {
  const created = await api('POST', '/pipelines', { name, gitAccountId, repositoryUrl, branchFilter: 'main', automatedTrigger: false });
  expect(created.statusCode, created.body).toBe(201);
  return created.json().pipelineId as string;
}

/** Triggers a build of the pipeline on main; answers its id. */
async function trigger(pipelineId: string) {
  const res = await api('POST', `/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().buildId as string;
}
/** The build once it ended (SUCCEEDED, FAILED or ABORTED). */
const ended = (pipelineId: string, buildId: string) =>
  until(
    async () => (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`)).json(),
    (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
    'the build to end',
  );

describe("a build's start", () => {
  it('is claimed as it is inserted, opens its box while the provider is still asked for the commit and spec, and runs its steps in it', async () => {
    const pipelineId = await pipelineNamed('steps');

    let release!: () => void;
    answerCommit = new Promise<void>((r) => (release = r));
    const asked = new Promise<void>((r) => (commitAsked = r));
    const buildId = await trigger(pipelineId);
    await asked;
    try {
      // claimed by this process as it was inserted: running at once, with no job queued for another worker
      const now = (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`)).json();
      expect(now.status).toBe('RUNNING');
      expect(now.startDate).not.toBeNull();
      const jobs = await t.app.services.database.executeSql(`select count(*)::int as n from pgboss.job where name = 'build.run'`);
      expect(jobs.rows[0].n).toBe(0);
      // the box is up before the commit is known
      await until(
        async () => boxesOf(buildId),
        (pids) => pids.length > 0,
        'the build box to start before the commit is read',
        20_000,
      );
    } finally {
      release();
    }
    const done = await ended(pipelineId, buildId);
    expect(done.status, done.errorMessage).toBe('SUCCEEDED');
    const logs = (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}/steps/Build/logs`)).json();
    expect(logs.chunks.map((c: { text: string }) => c.text).join('\n')).toContain('built');
    // and gone with the build
    await until(
      async () => boxesOf(buildId),
      (pids) => pids.length === 0,
      'the build box to end',
    );
  });

  it('opens a box for the next build once one ended: that build is inserted with its id and runs its first step in it at once', async () => {
    const pipelineId = await pipelineNamed('spare');
    const build = async () => {
      const buildId = await trigger(pipelineId);
      const done = await ended(pipelineId, buildId);
      expect(done.status, done.errorMessage).toBe('SUCCEEDED');
      return buildId;
    };
    const first = await build();
    // the first build's box is gone; a box for the next one is open, on a workspace of its own (no build has that id yet)
    const [spare] = await until(
      async () => boxedBuilds(),
      (ids) => ids.length === 1 && ids[0] !== first,
      'a spare box for the next build',
    );
    expect((await api('GET', `/pipelines/${pipelineId}/builds/${spare}`)).statusCode).toBe(404);
    // the next build is that box's: inserted with its id, its step run in it, its output in the log
    const second = await build();
    expect(second).toBe(spare);
    const logs = (await api('GET', `/pipelines/${pipelineId}/builds/${second}/steps/Build/logs`)).json();
    expect(logs.chunks.map((c: { text: string }) => c.text).join('\n')).toContain('built');
    // and gone with it; the one after gets another
    const [next] = await until(
      async () => boxedBuilds(),
      (ids) => ids.length === 1 && ids[0] !== second,
      'the next spare box',
    );
    expect([first, second]).not.toContain(next);
  });

  it("reads its project's plan once, at its trigger: its boxes are sized by the plan the trigger read", async () => {
    const pipelineId = await pipelineNamed('plan-once');
    const before = planReads.length;
    const buildId = await trigger(pipelineId);
    const done = await ended(pipelineId, buildId);
    expect(done.status, done.errorMessage).toBe('SUCCEEDED');
    // what its start reads: the trigger's check of the build minutes, then the sizing of its boxes' group (the watch of
    // its minutes reads a second after its start, for a build that runs that long: not counted)
    const started = Date.parse(done.startDate);
    await new Promise((r) => setTimeout(r, Math.max(0, started + 1000 - Date.now())));
    expect(planReads.slice(before).filter((at) => at < started + 1000)).toHaveLength(1);
  });

  it("starts a step of commands while the step before it's end is written, and keeps each step's lines and end in order", async () => {
    const pipelineId = await pipelineNamed('two-steps', twoStepsUrl);
    let letThrough!: () => void;
    movesLetThrough = new Promise<void>((r) => (letThrough = r));
    const moving = new Promise<void>((r) => (stepsMoving = r));
    let buildId = '';
    try {
      buildId = await trigger(pipelineId);
      await moving;
      // the first step's end is still being written, and the second step's commands already ran in the workspace
      await until(
        async () => fs.existsSync(`${dataDir}/workspaces/${buildId}/src/moved-on`),
        (there) => there,
        "the second step's command to run while the first step's end is written",
        20_000,
      );
      const now = (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`)).json();
      expect(now.status).toBe('RUNNING');
      expect(now.steps.map((s: { status: string | null }) => s.status)).toEqual(['RUNNING', null]);
    } finally {
      letThrough();
      movesLetThrough = Promise.resolve();
    }
    const done = await ended(pipelineId, buildId);
    expect(done.status, done.errorMessage).toBe('SUCCEEDED');
    expect(done.steps.map((s: { status: string }) => s.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    const [first, second] = done.steps as { startDate: string; stopDate: string }[];
    expect(Date.parse(second!.startDate)).toBe(Date.parse(first!.stopDate));
    const lines = async (step: string) =>
      (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}/steps/${step}/logs`))
        .json()
        .chunks.map((c: { text: string }) => c.text)
        .join('\n');
    expect(await lines('First')).toMatch(/\$ echo one\none$/);
    expect(await lines('Second')).toMatch(/\$ touch moved-on\n\$ echo two\ntwo$/);
  });

  it('reads the pipeline as last saved: an edit between two triggers is what the next build runs with', async () => {
    const pipelineId = await pipelineNamed('greet', greetUrl);
    const body = (value: string) => ({
      gitAccountId,
      repositoryUrl: greetUrl,
      branchFilter: 'main',
      automatedTrigger: false,
      environmentVariables: [{ key: 'GREETING', value, sensitive: false }],
    });
    const greetingOf = async () => {
      const buildId = await trigger(pipelineId);
      const done = await ended(pipelineId, buildId);
      expect(done.status, done.errorMessage).toBe('SUCCEEDED');
      const logs = (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}/steps/Greet/logs`)).json();
      return /^greeting=(.*)$/m.exec(logs.chunks.map((c: { text: string }) => c.text).join('\n'))?.[1];
    };
    for (const value of ['hello', 'bonjour', 'hallo']) {
      const saved = await t.app.inject({
        method: 'PUT',
        url: `/ms-ap/projects/${projectId}/pipelines/${pipelineId}`,
        headers: bearer(idToken),
        payload: body(value),
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(await greetingOf()).toBe(value);
    }
  });

  it("ends a step of commands started while the step before it's end was written FAILED when that write fails, and writes that end on its own", async () => {
    const pipelineId = await pipelineNamed('two-steps-failing-write', twoStepsUrl);
    failNextMove = true;
    const buildId = await trigger(pipelineId);
    const done = await ended(pipelineId, buildId);
    expect(done.status).toBe('FAILED');
    expect(done.errorMessage).toBe('the database went away');
    // nothing left RUNNING: the first step's commands succeeded, the second's end says why the build stopped
    expect(done.steps.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([
      ['First', 'SUCCEEDED'],
      ['Second', 'FAILED'],
    ]);
    expect(done.steps[1].errorMessage).toBe('the database went away');
  });
});
