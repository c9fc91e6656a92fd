import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, grantPlan, connectAwsAccount, bearer, until, acceptingCloudVerifier, type TestApp } from '../helpers.js';
import { createLocalGit } from '../local-git.js';
import { moduleComponentSetUp } from '../module-component.js';
import { filesBelow, hostProcesses } from './security-helpers.js';

/**
 * A Terraform module is user code too: its `local-exec` provisioners run with terraform in the
 * sandbox. A component built by a real pipeline from a real repository attacks the server from its
 * provisioner during a real deploy through the API; and a sensitive input must never be plain text
 * at rest afterwards (database or data dir), while the deploy and its outputs still work.
 */
const rand = () => crypto.randomBytes(6).toString('hex');
const CANARY = `canary-${rand()}`;
process.env.GANTRY_TEST_CANARY = CANARY;
process.env.GANTRY_SECRET_KEY = `canary-secret-key-${rand()}-0123456789abcdef`;
const HOST_SECRETS = [CANARY, process.env.GANTRY_SECRET_KEY];
const SECRET_INPUT = `tf-input-${rand()}-S3cret`;
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'ASIASECURITYKEY00001', AWS_SECRET_ACCESS_KEY: `aws-secret-${rand()}`, AWS_SESSION_TOKEN: `aws-session-${rand()}` };
const MARK = rand();
const LEFTOVER = `gantry-tf-leftover-${rand()}`;

const SPEC = `steps:
  Clone:
    type: git-clone
  Module:
    type: terraform-build
    terraform_dir: infra
`;
const MAIN_TF = `variable "name" { type = string }
variable "secret" {
  type      = string
  sensitive = true
}
resource "terraform_data" "probe" {
  input = { name = var.name, secret = var.secret }
  provisioner "local-exec" {
    interpreter = ["/bin/bash", "-c"]
    command     = "bash \${path.module}/probe.sh"
  }
}
output "greeting" { value = "hello \${var.name}" }
output "token" {
  value     = var.secret
  sensitive = true
}
`;
const SCHEMA = JSON.stringify({
  properties: {
    inputs: { properties: { name: { type: 'string' }, secret: { type: 'string', sensitive: true } }, required: ['name', 'secret'] },
    outputs: { properties: { greeting: { type: 'string' }, token: { type: 'string', sensitive: true } } },
  },
});
/** What the provisioner tries; `ATTACK-OK <name>` when it worked. */
const probe = (dataDir: string, serverPid: number) => `DATA='${dataDir}'
attempt() { local name="$1"; shift; if out=$("$@" 2>&1); then echo "ATTACK-OK $name"; else echo "ATTACK-FAILED $name"; fi; printf '%s\\n' "$out"; }
echo "UID=$(id -u)"
attempt read-key cat "$DATA/secret.key"
attempt read-artifacts ls "$DATA/artifacts"
attempt read-plans ls "$DATA/terraform/plans"
attempt host-environ cat /proc/${serverPid}/environ
attempt touch-data touch "$DATA/pwned-${MARK}"
attempt touch-usr touch /usr/pwned-${MARK}
echo "DATA-LS=$(ls -A "$DATA" | tr '\\n' ' ')"
echo "STAGES-LS=$(ls -A "$DATA/terraform/stages" | tr '\\n' ' ')"
echo "CACHE-LS=$(ls -A "$DATA/terraform/plugin-cache" | tr '\\n' ' ')"
# a provider binary another project's runs would execute (their .terraform/providers link into the cache)
mkdir -p "$DATA/terraform/plugin-cache/registry.terraform.io/hashicorp/aws" 2>/dev/null && touch "$DATA/terraform/plugin-cache/registry.terraform.io/hashicorp/aws/poison-${MARK}" 2>/dev/null
echo "PIDS=$(ls /proc | grep -E '^[0-9]+$' | tr '\\n' ' ')"
echo "ENV-BEGIN"; env; echo "ENV-END"
# a process meant to outlive terraform: out of the process group and reparented
( setsid bash -c 'exec -a ${LEFTOVER} sleep 600' >/dev/null 2>&1 </dev/null & )
seen() { for f in /proc/[0-9]*/cmdline; do [ "$(tr '\\0' '\\n' < "$f" 2>/dev/null | head -1)" = ${LEFTOVER} ] && return 0; done; return 1; }
for i in $(seq 1 50); do seen && echo "SLEEPER-SEEN" && break; sleep 0.1; done
echo "probe-done"
`;

let t: TestApp;
let git: ReturnType<typeof createLocalGit>;
let dataDir: string;
let secretKey: string;
let idToken: string;
let projectId: string;
let stageId: string;
let componentId: string;

const engine = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/ms-engine/projects/${projectId}${url}`,
    headers: bearer(idToken),
    ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
  });
const settled = (id: string) =>
  until(
    async () => (await engine('GET', `/stages/${stageId}/deployments/${id}`)).json(),
    (d) => !d.status.endsWith('IN_PROGRESS') && d.status !== 'DEPLOY_QUEUED',
    `deployment ${id}`,
  );
const logText = async (id: string) =>
  (await engine('GET', `/stages/${stageId}/deployments/${id}/logs`))
    .json()
    .chunks.map((c: { text: string }) => c.text)
    .join('\n');

beforeAll(async () => {
  git = createLocalGit();
  // no GANTRY_SECRET_KEY: generated into the data dir, which (with the key) is opened to every uid — only the sandbox keeps it away
  t = await createTestApp(
    { GANTRY_SECRET_KEY: '' },
    {
      overrides: {
        pipelines: { gitAccess: git.access },
        cloudAccounts: { verifier: acceptingCloudVerifier },
        deployments: { credentialsFor: async () => CREDENTIALS },
      },
      beforeReady: async (_app, config) => {
        dataDir = config.dataDir;
      },
    },
  );
  fs.chmodSync(dataDir, 0o755);
  fs.chmodSync(path.join(dataDir, 'secret.key'), 0o644);
  secretKey = fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8').trim();
  const repoUrl = git.createRepo('acme/infra', {
    'gantry.yaml': SPEC,
    'infra/main.tf': MAIN_TF,
    'infra/schema.json': SCHEMA,
    'infra/probe.sh': probe(dataDir, process.pid),
  }).url;

  ({ idToken } = await registerUser(t, 'tf-sec@example.com'));
  projectId = await createProject(t, idToken, 'Infra');
  await grantPlan(t, idToken, projectId);
  await connectAwsAccount(t, idToken, projectId, '210987654321');

  ({ componentId, stageId } = await moduleComponentSetUp(t, {
    idToken,
    projectId,
    repoUrl,
    component: { name: 'Probe', description: 'A probe' },
    environment: { name: 'sec', description: 'Security', awsAccountId: '210987654321', awsRegion: 'eu-west-1' },
  }));
}, 120_000);

afterAll(async () => {
  await t?.close();
  git?.close();
});

describe('a terraform module cannot reach the server', { timeout: 180_000 }, () => {
  let deploymentId: string;

  it('its local-exec provisioner reads nothing of the data dir, the key, host processes or the host environment, and writes nothing outside', async () => {
    expect(
      (
        await engine('POST', `/stages/${stageId}/resources`, {
          name: 'probe',
          componentId,
          configurations: [
            { key: 'name', value: 'alpha' },
            { key: 'secret', value: SECRET_INPUT },
          ],
        })
      ).statusCode,
    ).toBe(201);
    const plan = await engine('POST', `/stages/${stageId}/plans`);
    expect(plan.statusCode, plan.body).toBe(202);
    const planId = plan.json().planId as string;
    const made = await until(
      async () => (await engine('GET', `/stages/${stageId}/plans/${planId}`)).json(),
      (p) => p.status !== 'CREATING',
      'the plan',
    );
    expect(made.error).toBeNull();
    const applied = await engine('POST', `/stages/${stageId}/plans/${planId}/deploy`);
    expect(applied.statusCode, applied.body).toBe(202);
    deploymentId = applied.json().deploymentId;
    const done = await settled(deploymentId);
    expect(done.error).toBeNull();
    expect(done.status).toBe('CREATE_COMPLETE');

    const log = await logText(deploymentId);
    expect(log).toContain('probe-done'); // the provisioner ran, and its output is in the log
    const results = Object.fromEntries([...log.matchAll(/ATTACK-(OK|FAILED) (\S+)/g)].map((m) => [m[2], m[1]]));
    expect(results).toEqual({
      'read-key': 'FAILED',
      'read-artifacts': 'FAILED',
      'read-plans': 'FAILED',
      'host-environ': 'FAILED',
      'touch-data': 'FAILED',
      'touch-usr': 'FAILED',
    });
    expect(log).not.toContain(secretKey);
    for (const s of [...HOST_SECRETS, SECRET_INPUT, ...Object.values(CREDENTIALS)]) expect(log).not.toContain(s);
    expect(fs.existsSync(path.join(dataDir, `pwned-${MARK}`))).toBe(false);
    expect(fs.existsSync(`/usr/pwned-${MARK}`)).toBe(false);

    const uid = Number(/UID=(\d+)/.exec(log)?.[1]);
    expect(uid).toBeGreaterThan(0);
    expect(uid).not.toBe(process.getuid!());
    // of the data dir, only the path down to this environment's own folders
    expect(/DATA-LS=(.*)/.exec(log)?.[1]?.trim()).toBe('terraform');
    expect(/STAGES-LS=(.*)/.exec(log)?.[1]?.trim()).toBe(stageId);
    // of the provider plugin cache, only its project's own: nothing it writes there reaches another project's runs
    expect(/CACHE-LS=(.*)/.exec(log)?.[1]?.trim()).toBe(projectId);
    expect([...filesBelow(path.join(dataDir, 'terraform', 'plugin-cache'))].filter((f) => f.file.includes(`poison-${MARK}`))).toEqual([]);
    const pids = (/PIDS=(.*)/.exec(log)?.[1] ?? '').trim().split(/\s+/).map(Number);
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.length).toBeLessThan(20);
    expect(pids).not.toContain(process.pid);
    const env = /ENV-BEGIN\n([\s\S]*?)\n[^\n]*ENV-END/.exec(log)?.[1] ?? '';
    // nothing the provisioner started outlives the run
    expect(log).toContain('SLEEPER-SEEN');
    const left = await until(
      async () => hostProcesses(LEFTOVER),
      (p) => p.length === 0,
      'the sleeper to be gone',
      10_000,
    ).catch(() => hostProcesses(LEFTOVER));
    for (const p of left) process.kill(p.pid, 'SIGKILL'); // (only on failure) not left running after the test
    expect(left).toEqual([]);
    expect(env).toContain('TF_IN_AUTOMATION=1'); // the dump is real
    for (const name of ['GANTRY_TEST_CANARY', 'GANTRY_SECRET_KEY', 'DATABASE_URL', 'GANTRY_DATA_DIR']) expect(env).not.toContain(`${name}=`);
  });

  it('keeps the sensitive input and output sealed at rest (database and data dir) while the outputs still work', async () => {
    const outputs = (await engine('GET', `/stages/${stageId}/resources/probe/outputs`)).json().outputs;
    expect(outputs).toEqual(
      expect.arrayContaining([
        { key: 'greeting', value: 'hello alpha', sensitive: false },
        { key: 'token', value: '(sensitive)', sensitive: true },
      ]),
    );

    const states = await t.app.services.database.executeSql(`select sealed from terraform_states where stage_id = '${stageId}'`);
    expect(states.rows).toHaveLength(1);
    const sealed = String(states.rows[0]!.sealed);
    expect(sealed).not.toContain(SECRET_INPUT);
    expect(sealed).not.toContain(Buffer.from(SECRET_INPUT).toString('base64').slice(0, 12));
    // the state does hold the value (sealed): the check above looks at the right thing
    expect(t.app.services.secrets.open(sealed)).toContain(SECRET_INPUT);

    // nowhere under the data dir in plain text: no state file, plan, backup, log or module copy
    const forms = [SECRET_INPUT, Buffer.from(SECRET_INPUT).toString('base64').slice(0, 16), Buffer.from(SECRET_INPUT).toString('hex')];
    const holding: string[] = [];
    let files = 0;
    for (const { file, content } of filesBelow(dataDir)) {
      files++;
      const text = content.toString('latin1');
      if (forms.some((f) => text.includes(f))) holding.push(file);
    }
    expect(files).toBeGreaterThan(3);
    expect(holding).toEqual([]);
    // nor in the logs or the deployment rows
    const rows = await t.app.services.database.executeSql(`select string_agg(text, '') as t from deployment_logs`);
    expect(String(rows.rows[0]?.t ?? '')).not.toContain(SECRET_INPUT);
  });
});
