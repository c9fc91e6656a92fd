import fs from 'node:fs';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  createTestApp,
  grantPlan,
  connectAwsAccount,
  registerUser,
  createProject,
  createStage,
  bearer,
  until,
  acceptingCloudVerifier,
  type TestApp,
} from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import { moduleComponentSetUp } from '../../../test/module-component.js';
import { detectCgroups, groupScope, PARENT } from '../../integrations/executor/box-limits.js';
import { expectSweptAtStart } from '../../../test/box-groups.js';

/**
 * A deployment's boxes run under the builds' limits (box-limits.ts), on the real terraform CLI in the real sandbox: a
 * module whose `local-exec` provisioner is a fork bomb or a memory hog fails its deployment with the limit it hit, the
 * server answers meanwhile, and the run's group (which cannot be removed while a process is in it) is gone after. Small
 * limits, set as an admin would (GANTRY_BUILD_MEMORY/PROCESSES).
 */
const MAIN_TF = `variable "command" { type = string }
resource "terraform_data" "run" {
  input = var.command
  provisioner "local-exec" {
    command = var.command
  }
}
`;
const SCHEMA = JSON.stringify({ properties: { inputs: { properties: { command: { type: 'string' } }, required: ['command'] }, outputs: { properties: {} } } });
const ACCOUNT = '210987654321';
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'ASIALIMITSKEY0000001', AWS_SECRET_ACCESS_KEY: 'limits-secret', AWS_SESSION_TOKEN: 'limits-token' };

/** An app with these settings, a project whose component (MAIN_TF, built by a real pipeline) runs a command, and its first environment. */
async function setUp(git: ReturnType<typeof createLocalGit>, name: string, env: Record<string, string>) {
  const repoUrl = git.createRepo(`acme/${name}`, {
    'gantry.yaml': 'steps:\n  Clone:\n    type: git-clone\n  Module:\n    type: terraform-build\n    terraform_dir: infra\n',
    'infra/main.tf': MAIN_TF,
    'infra/schema.json': SCHEMA,
  }).url;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `gantry-deploy-${name}-`));
  const t = await createTestApp(
    { GANTRY_DATA_DIR: dataDir, ...env },
    {
      overrides: {
        pipelines: { gitAccess: git.access },
        cloudAccounts: { verifier: acceptingCloudVerifier },
        deployments: { credentialsFor: async () => CREDENTIALS },
      },
    },
  );
  const owner = await registerUser(t, `deploy-${name}@example.com`);
  const projectId = await createProject(t, owner.idToken, name);
  await grantPlan(t, owner.idToken, projectId);
  await connectAwsAccount(t, owner.idToken, projectId, ACCOUNT);
  const { componentId, stageId } = await moduleComponentSetUp(t, {
    idToken: owner.idToken,
    projectId,
    repoUrl,
    component: { name: 'Runner', description: 'Runs a command' },
    environment: { name: `${name}one`, description: 'Limits', awsAccountId: ACCOUNT, awsRegion: 'eu-west-1' },
  });
  return { t, dataDir, owner, projectId, componentId, stageId };
}

const cgroups = detectCgroups();
describe.skipIf(cgroups.kind === 'none')("a deployment's boxes under their limits", () => {
  const git = createLocalGit();
  let t: TestApp;
  let dataDir: string;
  let owner: { idToken: string };
  let projectId: string;
  let componentId: string;
  let firstStage: string;
  const engine = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/ms-engine/projects/${projectId}${url}`,
      headers: bearer(owner.idToken),
      ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
    });

  beforeAll(async () => {
    ({
      t,
      dataDir,
      owner,
      projectId,
      componentId,
      stageId: firstStage,
    } = await setUp(git, 'limits', {
      GANTRY_BUILD_MEMORY: '96m',
      GANTRY_BUILD_PROCESSES: '64',
      GANTRY_BUILD_MEMORY_BIGGER: '160m',
      GANTRY_BUILD_PROCESSES_BIGGER: '96',
    }));
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    git.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The parents of the groups (v1: one per controller). */
  const parents = () => {
    const self = fs.readFileSync('/proc/self/cgroup', 'utf8');
    if (cgroups.kind === 'v2') return [path.join('/sys/fs/cgroup', /^0::(.*)$/m.exec(self)![1]!, PARENT)];
    return ['pids', 'memory'].map((c) => path.join('/sys/fs/cgroup', c, new RegExp(`^\\d+:[^:]*\\b${c}\\b[^:]*:(.*)$`, 'm').exec(self)![1]!, PARENT));
  };
  const commOf = (pid: string) => {
    try {
      return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      return undefined; // ended meanwhile
    }
  };
  /** The groups of an environment's boxes (`<instance scope>-<environment id>-<random>`) that terraform runs in. */
  const busyGroups = (stageId: string) => {
    const prefix = `${groupScope(path.join(dataDir, 'terraform'))}-${stageId}-`;
    const [pids] = parents();
    return (fs.existsSync(pids!) ? fs.readdirSync(pids!) : [])
      .filter((n) => n.startsWith(prefix))
      .filter((n) => {
        try {
          // not an idle box: terraform runs in it
          return fs
            .readFileSync(path.join(pids!, n, 'cgroup.procs'), 'utf8')
            .split('\n')
            .filter(Boolean)
            .some((pid) => commOf(pid) === 'terraform');
        } catch {
          return false;
        }
      });
  };

  async function deploy(name: string, command: string) {
    const stageId =
      name === 'limitsone'
        ? firstStage
        : await createStage(t, owner.idToken, projectId, { name, description: 'Limits', awsAccountId: ACCOUNT, awsRegion: 'eu-west-1' });
    const added = await engine('POST', `/stages/${stageId}/resources`, { name: 'run', componentId, configurations: [{ key: 'command', value: command }] });
    expect(added.statusCode, added.body).toBe(201);
    const started = await engine('POST', `/stages/${stageId}/deploy`);
    expect(started.statusCode, started.body).toBe(202);
    const id = started.json().deploymentId as string;
    const logOf = async () =>
      (await engine('GET', `/stages/${stageId}/deployments/${id}/logs`))
        .json()
        .chunks.map((c: { text: string }) => c.text)
        .join('\n');
    // the run's boxes are in a group of their own while terraform runs (seen as it runs), and the server answers meanwhile
    const seen = new Set<string>();
    let done: { status: string; error: string | null };
    // from the provisioner's start to the deployment's end
    let ms = 0;
    const watch = setInterval(() => busyGroups(stageId).forEach((g) => seen.add(g)), 20);
    try {
      await until(logOf, (l) => l.includes("Provisioning with 'local-exec'"), 'the provisioner to start', 60_000, 20);
      const t0 = Date.now();
      const answered = await engine('GET', `/stages/${stageId}/deployments/${id}`);
      expect(answered.statusCode).toBe(200);
      expect(Date.now() - t0).toBeLessThan(2000);
      done = await until(
        async () => (await engine('GET', `/stages/${stageId}/deployments/${id}`)).json(),
        (d) => !d.status.endsWith('IN_PROGRESS') && d.status !== 'DEPLOY_QUEUED',
        'the deployment to end',
        60_000,
      );
      ms = Date.now() - t0;
    } finally {
      clearInterval(watch);
    }
    const log = await logOf();
    // nothing of the run is left: its group is gone (a spare box for the next run has a group of its own)
    const groups = [...seen];
    const gone = async () => {
      expect(groups.length, 'the run had a group').toBe(1);
      await until(
        async () => parents().some((p) => fs.existsSync(path.join(p, groups[0]!))),
        (there) => !there,
        'the run group to be removed',
        10_000,
        20,
      );
    };
    return { done, log, gone, ms };
  }

  it('fails a fork bomb in a local-exec provisioner with its process limit', async () => {
    // forks for as long as it lives, holding the provisioner's output open: once a fork is refused it is killed, and the
    // run ends at once
    const { done, log, gone, ms } = await deploy('limitsone', "bash -c ':(){ :|:& };:; sleep 30'");
    expect(ms).toBeLessThan(15_000);
    expect(done.status).toBe('CREATE_FAILED');
    expect(done.error).toContain('The deployment hit its limit of 64 processes');
    expect(log).toContain('The deployment hit its limit of 64 processes');
    await gone();
  }, 90_000);

  it('fails a memory hog in a local-exec provisioner with its memory limit', async () => {
    const { done, log, gone } = await deploy('limitstwo', 'head -c 1G /dev/zero | tail > /dev/null');
    expect(done.status).toBe('CREATE_FAILED');
    expect(done.error).toContain('A process was killed: the deployment went over its memory limit of 96 MiB');
    expect(log).toContain('the deployment went over its memory limit of 96 MiB');
    await gone();
  }, 90_000);
  it("ends a run over its limit at once, whatever its module code left holding terraform's output", async () => {
    // a process of its own session holds the provisioner's output (terraform waits for it) after the hog was killed
    const { done, log, gone, ms } = await deploy('limitsfive', 'setsid sleep 30 & head -c 1G /dev/zero | tail > /dev/null');
    expect(done.status).toBe('CREATE_FAILED');
    expect(done.error).toContain('A process was killed: the deployment went over its memory limit of 96 MiB');
    expect(log).toContain('the deployment went over its memory limit of 96 MiB');
    expect(ms).toBeLessThan(15_000);
    await gone();
  }, 90_000);

  it("gives terraform and its providers a collector's soft limit within the run's group: a quarter of its memory", async () => {
    const { done, log, gone } = await deploy('limitsfour', 'echo "soft limit=$GOMEMLIMIT"');
    expect(done.status).toBe('CREATE_COMPLETE');
    expect(log).toContain('soft limit=24MiB');
    await gone();
  }, 90_000);

  it("sizes a run's group by its project's plan, the box kept open for the environment's next run too", async () => {
    const stageId = await createStage(t, owner.idToken, projectId, {
      name: 'limitsthree',
      description: 'Limits',
      awsAccountId: ACCOUNT,
      awsRegion: 'eu-west-1',
    });
    const setCommand = async (command: string) => {
      const body = { name: 'run', componentId, configurations: [{ key: 'command', value: command }] };
      const res = await (command === 'sleep 1'
        ? engine('POST', `/stages/${stageId}/resources`, body)
        : t.app.inject({
            method: 'PUT',
            url: `/ms-engine/projects/${projectId}/stages/${stageId}/resources/run`,
            headers: bearer(owner.idToken),
            payload: body,
          }));
      expect(res.statusCode, res.body).toBeLessThan(300);
    };
    const [pids] = parents();
    const groupsOf = () => fs.readdirSync(pids!).filter((n) => n.startsWith(`${groupScope(path.join(dataDir, 'terraform'))}-${stageId}-`));
    /** Deploys, and answers the group terraform ran in and its process limit then. */
    const deployOnce = async () => {
      const id = (await engine('POST', `/stages/${stageId}/deploy`)).json().deploymentId as string;
      const [group] = await until(
        async () => busyGroups(stageId),
        (g) => g.length > 0,
        'the run to get its group',
        60_000,
        20,
      );
      const max = fs.readFileSync(path.join(pids!, group!, 'pids.max'), 'utf8').trim();
      const done = await until(
        async () => (await engine('GET', `/stages/${stageId}/deployments/${id}`)).json(),
        (d) => !d.status.endsWith('IN_PROGRESS') && d.status !== 'DEPLOY_QUEUED',
        'the deployment to end',
        60_000,
      );
      expect(done.error).toBeNull();
      return { group: group!, max };
    };
    await setCommand('sleep 1');
    const first = await deployOnce();
    expect(first.max).toBe('64');
    // the box kept open for the next run, in a group of its own
    const [spare] = await until(
      async () => groupsOf().filter((n) => n !== first.group),
      (g) => g.length === 1,
      'the spare box',
      10_000,
      20,
    );
    await grantPlan(t, owner.idToken, projectId, 'BUSINESS');
    await setCommand('sleep 1.5');
    const second = await deployOnce();
    expect(second).toEqual({ group: spare, max: '96' });
  });
  it("sweeps at start the groups its crash left, never another instance's", async () => {
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-deploy-groups-'));
    try {
      await expectSweptAtStart(cgroups, `${groupScope(path.join(otherDir, 'terraform'))}-${crypto.randomUUID()}-0a1b2c3d`, () =>
        createTestApp({ GANTRY_DATA_DIR: otherDir }),
      );
    } finally {
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });
});

/** Where no cgroup is made (GANTRY_BUILD_CGROUPS=none, or none writable): terraform's boxes get the rlimits, and each run's log says it once. */
describe('a deployment without a cgroup', () => {
  const git = createLocalGit();
  let t: TestApp | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await t?.close();
    git.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs under the rlimits and says once that its boxes run without limits of their own', async () => {
    const set = await setUp(git, 'rlimits', { GANTRY_BUILD_CGROUPS: 'none', GANTRY_BUILD_MEMORY: '1g', GANTRY_BUILD_PROCESSES: '300' });
    ({ t, dataDir } = set);
    const { owner, projectId, componentId, stageId } = set;
    const engine = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t!.app.inject({
        method,
        url: `/ms-engine/projects/${projectId}/stages/${stageId}${url}`,
        headers: bearer(owner.idToken),
        payload: payload ?? (method === 'POST' ? {} : undefined),
      });
    const added = await engine('POST', '/resources', {
      name: 'run',
      componentId,
      configurations: [{ key: 'command', value: `bash -c 'echo "nproc $(ulimit -u) data $(ulimit -d)"'` }],
    });
    expect(added.statusCode, added.body).toBe(201);
    const id = (await engine('POST', '/deploy')).json().deploymentId as string;
    const done = await until(
      async () => (await engine('GET', `/deployments/${id}`)).json(),
      (d) => !d.status.endsWith('IN_PROGRESS') && d.status !== 'DEPLOY_QUEUED',
      'the deployment to end',
      60_000,
    );
    expect(done.status, done.error).toBe('CREATE_COMPLETE');
    const log = (await engine('GET', `/deployments/${id}/logs`))
      .json()
      .chunks.map((c: { text: string }) => c.text)
      .join('\n');
    expect(log).toContain(`nproc 300 data ${1024 * 1024}`); // ulimit -d is in KiB
    expect(log.split("this deployment's boxes run without a memory or process limit of its own (GANTRY_BUILD_CGROUPS=none)").length).toBe(2);
  });
});
