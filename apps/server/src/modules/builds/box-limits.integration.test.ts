import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, bearer, until, grantPlan, type TestApp, insertGitAccount } from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import { detectCgroups, groupScope, PARENT } from '../../integrations/executor/box-limits.js';
import { expectSweptAtStart } from '../../../test/box-groups.js';

/**
 * A build's boxes run under limits of their own (box-limits.ts), in the real sandbox: a fork bomb and a memory
 * hog fail their step with the limit they hit, the server answers meanwhile, and nothing of the box (no process,
 * no cgroup) is left after the build. Small limits, set as an admin would (GANTRY_BUILD_MEMORY/PROCESSES).
 */
const cgroups = detectCgroups();
describe.skipIf(cgroups.kind === 'none')('a build box under its limits', () => {
  const git = createLocalGit();
  let t: TestApp;
  let gitAccountId: string;
  let owner: { idToken: string };
  let projectId: string;
  beforeAll(async () => {
    t = await createTestApp(
      { GANTRY_BUILD_MEMORY: '96m', GANTRY_BUILD_PROCESSES: '64', GANTRY_BUILD_MEMORY_BIGGER: '160m', GANTRY_BUILD_PROCESSES_BIGGER: '96' },
      { overrides: { pipelines: { gitAccess: git.access } } },
    );
    owner = await registerUser(t, 'limits@example.com');
    projectId = await createProject(t, owner.idToken, 'Limits');
    gitAccountId = (await insertGitAccount(t, projectId)).id;
  });
  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/ms-ap/projects/${projectId}${url}`, headers: bearer(owner.idToken), payload });
  afterAll(async () => {
    await t?.close();
    git.close();
  });

  /** The parents of the groups (v1: one per controller). */
  const parents = () => {
    const self = fs.readFileSync('/proc/self/cgroup', 'utf8');
    if (cgroups.kind === 'v2') return [path.join('/sys/fs/cgroup', /^0::(.*)$/m.exec(self)![1]!, PARENT)];
    return ['pids', 'memory'].map((c) => path.join('/sys/fs/cgroup', c, new RegExp(`^\\d+:[^:]*\\b${c}\\b[^:]*:(.*)$`, 'm').exec(self)![1]!, PARENT));
  };
  /** The dirs of a group (`<instance scope>-<build id>`: its name ends with the build's id). */
  const groupDirs = (buildId: string) =>
    parents().map((p) => path.join(p, (fs.existsSync(p) ? fs.readdirSync(p) : []).find((n) => n.endsWith(`-${buildId}`)) ?? `(none)-${buildId}`));

  async function run(name: string, command: string, whileRunning?: (buildId: string) => Promise<void>) {
    const repoUrl = git.createRepo(`acme/${name}`, { 'gantry.yaml': `steps:\n  Hog:\n    commands:\n      - ${JSON.stringify(command)}\n` }).url;
    const created = await api('POST', '/pipelines', { name, gitAccountId, repositoryUrl: repoUrl, branchFilter: 'main', automatedTrigger: false });
    expect(created.statusCode, created.body).toBe(201);
    const pipelineId = created.json().pipelineId as string;
    const started = await api('POST', `/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' });
    expect(started.statusCode, started.body).toBe(201);
    const buildId = started.json().buildId as string;
    // the box's group is there while the step runs, and the server answers meanwhile
    await until(
      async () => groupDirs(buildId).every((d) => fs.existsSync(d)),
      (there) => there,
      'the build to get its group',
      20_000,
      20,
    );
    await whileRunning?.(buildId);
    const t0 = Date.now();
    const answered = await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`);
    expect(answered.statusCode).toBe(200);
    expect(Date.now() - t0).toBeLessThan(2000);
    const done = await until(
      async () => (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`)).json(),
      (b) => !['QUEUED', 'SCHEDULING', 'RUNNING'].includes(b.status),
      'the build to end',
      60_000,
    );
    const logs = (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}/steps/Hog/logs`)).body;
    // nothing of the box is left: its group (which cannot be removed while a process is in it) is gone
    await until(
      async () => groupDirs(buildId).some((d) => fs.existsSync(d)),
      (there) => !there,
      'the group to be removed',
      10_000,
      20,
    );
    return { done, logs };
  }

  it('fails a fork bomb with its process limit, and leaves nothing running', async () => {
    const { done, logs } = await run('forkbomb', "timeout 2 bash -c ':(){ :|:& };:; sleep 5'");
    expect(done.status).toBe('FAILED');
    expect(done.errorMessage).toContain('The step hit its limit of 64 processes');
    expect(logs).toContain('The step hit its limit of 64 processes');
  });

  it('fails a memory hog with its memory limit', async () => {
    const { done, logs } = await run('hog', 'head -c 1G /dev/zero | tail > /dev/null');
    expect(done.status).toBe('FAILED');
    expect(done.errorMessage).toContain('A process was killed: the step went over its memory limit of 96 MiB');
    expect(logs).toContain('the step went over its memory limit of 96 MiB');
  });

  it('gives a project whose plan has biggerRuntimeEnvironments the bigger limits', async () => {
    await grantPlan(t, owner.idToken, projectId, 'BUSINESS');
    const pidsMax = (buildId: string) => fs.readFileSync(path.join(groupDirs(buildId)[0]!, 'pids.max'), 'utf8').trim();
    let seen = '';
    const { done } = await run('bigger', 'sleep 1', async (buildId) => {
      seen = await until(
        async () => pidsMax(buildId),
        (v) => v === '96',
        'the bigger process limit',
        5000,
        20,
      );
    });
    expect(seen).toBe('96');
    expect(done.status, done.errorMessage).toBe('SUCCEEDED');
  });

  it("sweeps at start the groups its crash left, never another instance's", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-groups-'));
    try {
      await expectSweptAtStart(cgroups, `${groupScope(path.join(dataDir, 'workspaces'))}-${crypto.randomUUID()}`, () =>
        createTestApp({ GANTRY_DATA_DIR: dataDir }, { overrides: { pipelines: { gitAccess: git.access } } }),
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/**
 * A Gantry with these settings (`keep`: to close after) runs one build of `spec`, in a project of its own: the build once
 * ended, and its steps' logs (their lines).
 */
async function oneBuild(git: ReturnType<typeof createLocalGit>, config: Record<string, string>, name: string, spec: string, keep: (t: TestApp) => void) {
  const t = await createTestApp(config, { overrides: { pipelines: { gitAccess: git.access } } });
  keep(t);
  const owner = await registerUser(t, `${name}@example.com`);
  const projectId = await createProject(t, owner.idToken, name);
  const gitAccountId = (await insertGitAccount(t, projectId)).id;
  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/ms-ap/projects/${projectId}${url}`, headers: bearer(owner.idToken), payload });
  const repoUrl = git.createRepo(`acme/${name}`, { 'gantry.yaml': spec }).url;
  const created = await api('POST', '/pipelines', { name, gitAccountId, repositoryUrl: repoUrl, branchFilter: 'main', automatedTrigger: false });
  const pipelineId = created.json().pipelineId as string;
  const buildId = (await api('POST', `/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' })).json().buildId as string;
  const done = await until(
    async () => (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`)).json(),
    (b) => !['QUEUED', 'SCHEDULING', 'RUNNING'].includes(b.status),
    'the build to end',
    60_000,
  );
  const logs = async (step: string) =>
    (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}/steps/${step}/logs`))
      .json()
      .chunks.map((c: { text: string }) => c.text)
      .join('\n') as string;
  return { done, logs };
}

/** A build's boxes share the CPU time their limit gives them (GANTRY_BUILD_CPUS), whatever the host's cores. */
describe.skipIf(cgroups.kind === 'none')('a build box under its CPU limit', () => {
  const git = createLocalGit();
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    git.close();
  });

  it('keeps busy loops to a fifth of a CPU together under GANTRY_BUILD_CPUS=0.2', async () => {
    // 2 s of four busy loops, then the CPU time they used (bash's `times`: its children's user and system time, second
    // line); without a limit they take what the host's cores give them (2 s each on an idle host)
    const command = `bash -c 'for i in 1 2 3 4; do timeout 2 sh -c "while :; do :; done" & done; wait; times'`;
    const { done, logs } = await oneBuild(
      git,
      { GANTRY_BUILD_CPUS: '0.2' },
      'cpus',
      `steps:\n  Busy:\n    commands:\n      - ${JSON.stringify(command)}\n`,
      (app) => (t = app),
    );
    expect(done.status, done.errorMessage).toBe('SUCCEEDED');
    const busy = await logs('Busy');
    const times = [...busy.matchAll(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/gm)];
    expect(times, busy).toHaveLength(2);
    const [, um, us, sm, ss] = times[1]!.map(Number) as number[];
    const used = um! * 60 + us! + sm! * 60 + ss!;
    // 0.2 of 2 s: about 0.4 s together (the scheduler's periods at its ends give or take a little)
    expect(used).toBeGreaterThan(0.2);
    expect(used).toBeLessThan(0.6);
  }, 90_000);
});

/** Where no cgroup is made (GANTRY_BUILD_CGROUPS=none, or none writable): the rlimits, and the log says it once. */
describe('a build box without a cgroup', () => {
  const git = createLocalGit();
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    git.close();
  });

  it('runs under the rlimits and says once that it runs without limits of its own', async () => {
    const spec = 'steps:\n  One:\n    commands:\n      - echo "nproc $(ulimit -u) data $(ulimit -d)"\n  Two:\n    commands:\n      - echo two\n';
    const config = { GANTRY_BUILD_CGROUPS: 'none', GANTRY_BUILD_MEMORY: '1g', GANTRY_BUILD_PROCESSES: '300' };
    const { done, logs } = await oneBuild(git, config, 'rlimits', spec, (app) => (t = app));
    expect(done.status, done.errorMessage).toBe('SUCCEEDED');
    const one = await logs('One');
    expect(one).toContain(`nproc 300 data ${1024 * 1024}`); // ulimit -d is in KiB
    expect(one).toContain('runs without a memory or process limit of its own (GANTRY_BUILD_CGROUPS=none)');
    expect(await logs('Two')).not.toContain('without a memory or process limit');
  });
});
