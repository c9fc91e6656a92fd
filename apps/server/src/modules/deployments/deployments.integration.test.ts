import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTerraformRunner, type TerraformBackend } from '../../integrations/terraform/index.js';
import {
  createTestApp,
  grantPlan,
  connectAwsAccount,
  registerUser,
  createProject,
  addMember,
  bearer,
  type TestApp,
  until,
  acceptingCloudVerifier,
} from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import { moduleComponentSetUp } from '../../../test/module-component.js';
import diagnostics from 'node:diagnostics_channel';
import { DEPLOYMENT_PHASES, WORKER_STOPPED, type DeploymentPhase } from './deployments.jobs.js';

/**
 * The whole path on real systems: a git repository with a Terraform module (`terraform_data` and a
 * local-exec provisioner only), a real pipeline build packaging it as a component version, an
 * environment of two resources where one takes the other's output, then plan → deploy that plan →
 * outputs → cancel mid-apply → a dead worker's terraform ended by recovery → undeploy, on the real
 * terraform CLI. The state is sealed in the database between runs and unsealed into the work dir
 * only while terraform runs (on PGlite and, on the PostgreSQL pass, on PostgreSQL).
 */
const SPEC = `steps:
  Clone:
    type: git-clone
  Module:
    type: terraform-build
    terraform_dir: infra
`;
const MAIN_TF = `resource "terraform_data" "item" {
  input            = { name = var.name, upstream = var.upstream }
  triggers_replace = [var.revision, sha256(var.secret)]
  provisioner "local-exec" {
    command = "echo cred=$AWS_SECRET_ACCESS_KEY; echo provisioner-started; sleep \${var.delay}"
  }
}
`;
const VARIABLES_TF = `variable "name" { type = string }
variable "upstream" {
  type    = string
  default = ""
}
variable "revision" {
  type    = string
  default = "1"
}
variable "delay" {
  type    = number
  default = 0
}
variable "secret" {
  type      = string
  sensitive = true
  default   = ""
}
`;
const OUTPUTS_TF = `output "greeting" { value = "hello \${var.name}" }
output "upstream" { value = terraform_data.item.output.upstream }
output "token" {
  value     = var.secret
  sensitive = true
}
`;
const SCHEMA = JSON.stringify({
  properties: {
    inputs: {
      properties: {
        name: { type: 'string' },
        upstream: { type: 'string', default: '' },
        revision: { type: 'string', default: '1' },
        delay: { type: 'number', default: 0 },
        secret: { type: 'string', sensitive: true, default: '' },
      },
      required: ['name'],
    },
    outputs: { properties: { greeting: { type: 'string' }, upstream: { type: 'string' }, token: { type: 'string', sensitive: true } } },
  },
});

const verifier = acceptingCloudVerifier;
const ACCOUNT = '210987654321';
const CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'ASIAINTEGRATIONKEY01',
  AWS_SECRET_ACCESS_KEY: 'integration-secret-access-key',
  AWS_SESSION_TOKEN: 'integration-session-token',
};
const SECRET = 'pa55-w0rd-0f-first';
const pgServer = process.env.TEST_DATABASE_URL;

let t: TestApp;
let git: ReturnType<typeof createLocalGit>;
let dataDir: string;
let owner: { idToken: string };
let reader: { idToken: string };
let projectId: string;
let stageId: string;
let componentId: string;
let buildId: string;
let sha: string;
let orphanPid: number | undefined;

const engine = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token = owner.idToken, payload?: object) =>
  t.app.inject({
    method,
    url: `/ms-engine/projects/${projectId}${url}`,
    headers: bearer(token),
    ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
  });

const deployment = async (id: string) => (await engine('GET', `/stages/${stageId}/deployments/${id}`, reader.idToken)).json();
const settled = (id: string) =>
  until(
    () => deployment(id),
    (d) => !d.status.endsWith('IN_PROGRESS') && d.status !== 'DEPLOY_QUEUED',
    `deployment ${id}`,
  );
const logText = async (id: string) =>
  (await engine('GET', `/stages/${stageId}/deployments/${id}/logs`, reader.idToken))
    .json()
    .chunks.map((c: { text: string }) => c.text)
    .join('\n');
/** Until the run's terraform is in its resource's provisioner (its log says so). */
const provisionerStarted = (deploymentId: string) =>
  until(
    () => logText(deploymentId),
    (l) => l.includes('provisioner-started'),
    'the provisioner to start',
  );
const stage = async () => (await engine('GET', `/stages/${stageId}`, reader.idToken)).json();
const resources = async () =>
  (await engine('GET', `/stages/${stageId}/resources`, reader.idToken))
    .json()
    .resources.map((r: { name: string; status: string; isDeployed: boolean }) => [r.name, r.status, r.isDeployed]);
const setSecond = (values: Record<string, string>) =>
  engine('PUT', `/stages/${stageId}/resources/second`, owner.idToken, {
    name: 'second',
    componentId,
    configurations: [
      { key: 'name', value: 'beta' },
      { key: 'upstream', value: 'first.greeting', reference: true },
      ...Object.entries(values).map(([key, value]) => ({ key, value })),
    ],
  });
async function plan() {
  const started = await engine('POST', `/stages/${stageId}/plans`);
  expect(started.statusCode, started.body).toBe(202);
  const id = started.json().planId as string;
  return until(
    async () => (await engine('GET', `/stages/${stageId}/plans/${id}`, reader.idToken)).json(),
    (p) => p.status !== 'CREATING',
    'the plan',
  );
}

const workDir = () => path.join(dataDir, 'terraform', 'stages', stageId);
/** The bwrap processes (the boxes) that show a folder of the host. */
const boxesOf = (dir: string) =>
  fs
    .readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        return path.basename(args[0]!) === 'bwrap' && args.includes(dir);
      } catch {
        return false; // ended meanwhile
      }
    });
/** What a process's children run (none when it ended meanwhile). */
const childCommands = (pid: string) => {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((c) => fs.readFileSync(`/proc/${c}/comm`, 'utf8').trim());
  } catch {
    return []; // ended meanwhile
  }
};
/** What the engine uses for this environment (its state file in the work dir while a run holds it), with `-lock-timeout=0s`: it fails at once while anyone holds the state lock. */
function lockProbe() {
  const backend: TerraformBackend = { type: 'local', path: path.join(workDir(), 'terraform.tfstate') };
  return createTerraformRunner({
    workDir: path.join(dataDir, 'terraform', 'stages', stageId),
    pluginCacheDir: path.join(dataDir, 'terraform', 'plugin-cache', projectId),
    backend,
    lockTimeout: '0s',
    env: { ...CREDENTIALS, ...rootVariables() },
  });
}
/** `TF_VAR_…` for the root module's variables (its one sensitive input), as the engine passes them. */
function rootVariables() {
  const dir = path.join(dataDir, 'terraform', 'stages', stageId);
  const env: Record<string, string> = {};
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.tf.json'))) {
    for (const name of Object.keys(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')).variable ?? {})) env[`TF_VAR_${name}`] = SECRET;
  }
  return env;
}

beforeAll(async () => {
  git = createLocalGit();
  const repoUrl = git.createRepo('acme/infra', {
    'gantry.yaml': SPEC,
    'infra/main.tf': MAIN_TF,
    'infra/variables.tf': VARIABLES_TF,
    'infra/outputs.tf': OUTPUTS_TF,
    'infra/schema.json': SCHEMA,
    'infra/README.md': '# Item',
  }).url;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-deploy-it-'));
  t = await createTestApp(
    { GANTRY_DATA_DIR: dataDir, ...(pgServer ? { DATABASE_URL: pgServer } : {}) },
    {
      overrides: { pipelines: { gitAccess: git.access }, cloudAccounts: { verifier }, deployments: { credentialsFor: async () => CREDENTIALS } },
    },
  );
  owner = await registerUser(t, 'it-owner@example.com');
  projectId = await createProject(t, owner.idToken, 'Infra');
  reader = await addMember(t, owner.idToken, projectId, 'it-reader@example.com', 'read');
  await grantPlan(t, owner.idToken, projectId);
  await connectAwsAccount(t, owner.idToken, projectId, ACCOUNT);

  // the component: a real pipeline builds and packages the module
  ({ componentId, buildId, sha, stageId } = await moduleComponentSetUp(t, {
    idToken: owner.idToken,
    projectId,
    repoUrl,
    component: { name: 'Item', description: 'An item' },
    environment: { name: 'integ', description: 'Integration', awsAccountId: ACCOUNT, awsRegion: 'eu-west-1' },
  }));
}, 120_000);

afterAll(async () => {
  try {
    if (orphanPid) process.kill(-orphanPid, 'SIGKILL'); // only when the test failed before recovery ended it
  } catch {
    /* ended */
  }
  await t?.close();
  // the server's stop closes the boxes it kept open for next runs
  if (dataDir)
    await until(
      async () => boxesOf(workDir()),
      (pids) => pids.length === 0,
      'no box of the environment left',
      5_000,
    );
  git?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('deployments of a pipeline-built component on the real terraform CLI', () => {
  it("plans two resources, one taking the other's output, and deploys exactly that plan", async () => {
    expect(
      (
        await engine('POST', `/stages/${stageId}/resources`, owner.idToken, {
          name: 'first',
          componentId,
          configurations: [
            { key: 'name', value: 'alpha' },
            { key: 'secret', value: SECRET },
          ],
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await engine('POST', `/stages/${stageId}/resources`, owner.idToken, {
          name: 'second',
          componentId,
          configurations: [
            { key: 'name', value: 'beta' },
            { key: 'upstream', value: 'first.greeting', reference: true },
          ],
        })
      ).statusCode,
    ).toBe(201);

    const made = await plan();
    expect(made.error).toBeNull();
    expect(made).toMatchObject({ status: 'READY', summary: { add: 2, change: 0, destroy: 0 } });
    expect(
      made.changes
        .map((c: { resourceName: string; action: string; componentId: string; name: string; version: string }) => [
          c.resourceName,
          c.action,
          c.componentId,
          c.name,
          c.version,
        ])
        .sort(),
    ).toEqual([
      ['first', 'create', componentId, 'Item', sha.slice(0, 7)],
      ['second', 'create', componentId, 'Item', sha.slice(0, 7)],
    ]);

    const applied = await engine('POST', `/stages/${stageId}/plans/${made.planId}/deploy`);
    expect(applied.statusCode, applied.body).toBe(202);
    const done = await settled(applied.json().deploymentId);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ kind: 'PLAN_APPLY', status: 'CREATE_COMPLETE' });
    expect(done.durationMs).toBeGreaterThan(0);
    expect(done.resources).toEqual([
      { name: 'first', component: { id: componentId, name: 'Item' }, componentVersion: buildId, version: sha.slice(0, 7) },
      { name: 'second', component: { id: componentId, name: 'Item' }, componentVersion: buildId, version: sha.slice(0, 7) },
    ]);
    expect(await stage()).toMatchObject({ status: 'CREATE_COMPLETE', currentDeploymentId: done.id, lastDeploymentId: done.id });
    expect(await resources()).toEqual([
      ['first', 'CREATE_COMPLETE', true],
      ['second', 'CREATE_COMPLETE', true],
    ]);

    const log = await logText(done.id);
    expect(log).toContain('Apply complete! Resources: 2 added');
    // the account's credentials reached terraform (the provisioner printed one) and were masked
    expect(log).toContain('cred=***');
    for (const secret of [SECRET, ...Object.values(CREDENTIALS)]) expect(log).not.toContain(secret);
  });

  it('reads the outputs from the state: the reference passed through, the sensitive one hidden', async () => {
    expect((await engine('GET', `/stages/${stageId}/resources/second/outputs`, reader.idToken)).json().outputs).toEqual(
      expect.arrayContaining([
        { key: 'greeting', value: 'hello beta', sensitive: false },
        { key: 'upstream', value: 'hello alpha', sensitive: false },
      ]),
    );
    expect((await engine('GET', `/stages/${stageId}/resources/first/outputs`, reader.idToken)).json().outputs).toContainEqual({
      key: 'token',
      value: '(sensitive)',
      sensitive: true,
    });
  });

  it('runs one deployment of the environment at a time and makes no plan while one runs', async () => {
    const published: DeploymentPhase[] = [];
    const onPhase = (m: unknown) => void published.push(m as DeploymentPhase);
    diagnostics.subscribe(DEPLOYMENT_PHASES, onPhase);
    try {
      const first = await engine('POST', `/stages/${stageId}/deploy`);
      const second = await engine('POST', `/stages/${stageId}/deploy`);
      expect([first.statusCode, second.statusCode]).toEqual([202, 409]);
      expect(second.json().message).toBe('A deployment of this environment is already running');
      expect((await engine('POST', `/stages/${stageId}/plans`)).statusCode).toBe(409);
      expect(await settled(first.json().deploymentId)).toMatchObject({ status: 'UPDATE_COMPLETE', error: null });
      // its moments, as bench/deploy-overhead reads them: each terraform process started and exited in turn
      const own = published.filter((p) => p.deploymentId === first.json().deploymentId);
      expect(own.map((p) => p.phase).join(' ')).toMatch(/^running( engine-started engine-exited)+ ended$/);
      expect(own.map((p) => p.at)).toEqual(own.map((p) => p.at).sort((a, b) => a - b));
    } finally {
      diagnostics.unsubscribe(DEPLOYMENT_PHASES, onPhase);
    }
  });

  it('runs the next terraform of the environment in the box kept open since its last run', async () => {
    // the box opens a moment after the last run's end, and waits (bwrap, its first process the exec runner's bash,
    // once the drop to the sandbox's uid, setpriv, has exec'd it)
    const [spare] = await until(
      async () => boxesOf(workDir()).map((pid) => ({ pid, runs: childCommands(pid) })),
      (boxes) => boxes.length === 1 && boxes[0]!.runs.join() === 'bash',
      "the environment's spare box, waiting in its bash",
      10_000,
    ).then((boxes) => boxes.map((b) => b.pid));
    expect((await setSecond({ revision: 'spare', delay: '2' })).statusCode).toBe(200);
    const started = (await engine('POST', `/stages/${stageId}/deploy`)).json();
    await provisionerStarted(started.deploymentId);
    expect(childCommands(spare!)).toEqual(['terraform']);
    expect(await settled(started.deploymentId)).toMatchObject({ status: 'UPDATE_COMPLETE', error: null });
    // used once: it ended with its terraform, and the next run's box opens
    await until(
      async () => boxesOf(workDir()),
      (pids) => pids.length === 1 && pids[0] !== spare,
      'a new spare box',
      10_000,
    );
  });

  it('cancels mid-apply: terraform stops on SIGINT, the run fails as cancelled and the state lock is free', async () => {
    expect((await setSecond({ revision: '2', delay: '120' })).statusCode).toBe(200);
    const started = (await engine('POST', `/stages/${stageId}/deploy`)).json();
    await provisionerStarted(started.deploymentId);
    expect((await deployment(started.deploymentId)).status).toBe('UPDATE_IN_PROGRESS');
    expect((await engine('POST', `/stages/${stageId}/cancel`)).statusCode).toBe(200);
    const done = await settled(started.deploymentId);
    expect(done).toMatchObject({ status: 'UPDATE_FAILED', error: 'Deployment cancelled' });
    expect(await stage()).toMatchObject({ status: 'UPDATE_FAILED', currentDeploymentId: expect.not.stringMatching(started.deploymentId) });
    expect(await logText(started.deploymentId)).toContain('Interrupt received');
    await expect(lockProbe().plan()).resolves.toMatchObject({ planFile: expect.any(String) });
  });

  it('ends the terraform a dead worker left running, fails its deployment with the reason and frees the lock', async () => {
    expect((await setSecond({ revision: '3', delay: '120' })).statusCode).toBe(200);
    expect((await plan()).status).toBe('READY'); // writes this root module into the work dir
    // what a worker killed mid-apply leaves: the state it unsealed into the work dir, and a detached terraform apply holding its lock
    const sealed = (await t.app.services.database.executeSql(`select sealed from terraform_states where stage_id = '${stageId}'`)).rows[0].sealed as string;
    expect(sealed).not.toContain(SECRET);
    fs.writeFileSync(path.join(workDir(), 'terraform.tfstate'), t.app.services.secrets.open(sealed));
    const probe = lockProbe();
    const orphan = spawn('terraform', ['apply', '-auto-approve', '-input=false', '-no-color'], {
      cwd: probe.workDir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...CREDENTIALS, ...rootVariables(), TF_IN_AUTOMATION: '1' },
    });
    orphanPid = orphan.pid;
    const exited = new Promise<number | null>((r) => orphan.once('exit', (code) => r(code)));
    let out = '';
    orphan.stdout!.on('data', (c) => {
      out += c;
    });
    orphan.stderr!.on('data', (c) => {
      out += c;
    });
    await until(
      async () => out,
      (o) => o.includes('provisioner-started'),
      'the orphan to reach its provisioner',
      60_000,
    );
    await expect(probe.plan()).rejects.toThrow(/lock/i);

    await t.app.services.database.executeSql(
      `insert into deployments (stage_id, project_id, kind, status, active, started_at, heartbeat_at, worker_id, process_id)
       values ('${stageId}', '${projectId}', 'DEPLOY', 'UPDATE_IN_PROGRESS', true, now() - interval '5 minutes', now() - interval '5 minutes', '${os.hostname()}:1:gone', ${orphan.pid})`,
    );
    const id = (await t.app.services.database.executeSql(`select id from deployments where stage_id = '${stageId}' and active`)).rows[0].id as string;
    await t.app.services.deployments.recoverNow();
    const done = await settled(id);
    expect(done).toMatchObject({ status: 'UPDATE_FAILED', error: WORKER_STOPPED });
    await exited; // terraform is gone, not left applying
    expect(out).toContain('Interrupt received');
    expect((await stage()).status).toBe('UPDATE_FAILED');
    expect(await logText(id)).toContain(WORKER_STOPPED);
    // the state the orphan wrote is the newest: sealed into the database, no plain copy left behind
    expect(fs.existsSync(path.join(workDir(), 'terraform.tfstate'))).toBe(false);
    await expect(lockProbe().plan()).resolves.toMatchObject({ planFile: expect.any(String) });

    expect((await setSecond({ revision: '4' })).statusCode).toBe(200);
    const again = (await engine('POST', `/stages/${stageId}/deploy`)).json();
    expect(await settled(again.deploymentId)).toMatchObject({ status: 'UPDATE_COMPLETE', error: null });
  });

  it("stores the state a run left with the run's end, and seals one its worker left waiting for that end", async () => {
    const stateFile = path.join(workDir(), 'terraform.tfstate');
    const plainCopies = () => fs.readdirSync(workDir()).filter((f) => f.startsWith('terraform.tfstate'));
    const storedState = async () =>
      JSON.parse(
        t.app.services.secrets.open(
          (await t.app.services.database.executeSql(`select sealed from terraform_states where stage_id = '${stageId}'`)).rows[0].sealed as string,
        ),
      ) as { serial: number; lineage: string };
    // a run's end stored the state it left, then removed every plain copy
    const before = await storedState();
    expect((await setSecond({ revision: '5' })).statusCode).toBe(200);
    const run = (await engine('POST', `/stages/${stageId}/deploy`)).json();
    expect(await settled(run.deploymentId)).toMatchObject({ status: 'UPDATE_COMPLETE', error: null });
    expect((await storedState()).serial).toBeGreaterThan(before.serial);
    expect(plainCopies()).toEqual([]);

    // a worker that stopped after its terraform exited, before its end committed: the state waits for that end
    const left = { ...(await storedState()), serial: (await storedState()).serial + 1 };
    fs.writeFileSync(`${stateFile}.sealing`, JSON.stringify(left));
    await t.app.services.database.executeSql(
      `insert into deployments (stage_id, project_id, kind, status, active, started_at, heartbeat_at, worker_id)
       values ('${stageId}', '${projectId}', 'DEPLOY', 'UPDATE_IN_PROGRESS', true, now() - interval '5 minutes', now() - interval '5 minutes', '${os.hostname()}:1:gone')`,
    );
    const id = (await t.app.services.database.executeSql(`select id from deployments where stage_id = '${stageId}' and active`)).rows[0].id as string;
    await t.app.services.deployments.recoverNow();
    expect(await settled(id)).toMatchObject({ status: 'UPDATE_FAILED', error: WORKER_STOPPED });
    // the newest state, sealed; no plain copy left
    expect(await storedState()).toMatchObject({ serial: left.serial, lineage: left.lineage });
    expect(plainCopies()).toEqual([]);
    const again = (await engine('POST', `/stages/${stageId}/deploy`)).json();
    expect(await settled(again.deploymentId)).toMatchObject({ status: 'UPDATE_COMPLETE', error: null });
  });

  it('undeploys one resource, then the environment', async () => {
    const one = (await engine('POST', `/stages/${stageId}/resources/second/undeploy`)).json();
    expect(await settled(one.deploymentId)).toMatchObject({ kind: 'UNDEPLOY_RESOURCE', status: 'DELETE_COMPLETE', resourceName: 'second' });
    expect(await resources()).toEqual([
      ['first', 'UPDATE_COMPLETE', true],
      ['second', 'DELETE_COMPLETE', false],
    ]);
    const before = await stage();
    expect(before.status).toBe('UPDATE_COMPLETE');
    // the deploy that stands: one resource less is no new current deployment
    expect(before.currentDeploymentId).not.toBe(one.deploymentId);

    const all = (await engine('POST', `/stages/${stageId}/undeploy`)).json();
    expect(all.status).toBe('DELETE_IN_PROGRESS');
    const done = await settled(all.deploymentId);
    expect(done).toMatchObject({ kind: 'UNDEPLOY', status: 'DELETE_COMPLETE', error: null });
    expect(await logText(done.id)).toContain('Destroy complete!');
    // the undeploy is what stands now, not the deploy before it; its time is no deploy's
    expect(await stage()).toMatchObject({ status: 'DELETE_COMPLETE', currentDeploymentId: done.id, lastDeployed: before.lastDeployed });
    expect(await resources()).toEqual([
      ['first', 'DELETE_COMPLETE', false],
      ['second', 'DELETE_COMPLETE', false],
    ]);
    expect((await engine('GET', `/stages/${stageId}/resources/first/outputs`, reader.idToken)).json()).toEqual({ outputs: [] });
    const time = (
      await t.app.inject({ method: 'GET', url: `/ms-elasticsearch/projects/${projectId}/deployment-time`, headers: bearer(reader.idToken) })
    ).json();
    expect(time.stages).toEqual([{ stageId, name: 'integ', deploymentTime: time.deploymentTime }]);
    expect(time.deploymentTime).toBeGreaterThan(0);
  });
});
