import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  AbortedError,
  BACKEND_FILE,
  createTerraformRunner,
  GO_GC,
  goMemLimit,
  generateRootModule,
  moduleAddress,
  outputsByResource,
  readModuleInterface,
  TerraformError,
  writeRootModule,
  type RootModuleSpec,
  type TerraformBackend,
  type TerraformRunner,
} from './index.js';
import { createSandbox } from '../executor/sandbox.js';
import { openBox, type OpenedBox } from '../executor/opened-box.js';

/**
 * The real terraform CLI (TERRAFORM_BIN, default `terraform`) on components made of the built-in
 * `terraform_data` resource only: nothing is downloaded (DESIGN §7).
 */
const bin = process.env.TERRAFORM_BIN ?? 'terraform';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-tf-'));
const pluginCacheDir = path.join(tmp, 'plugin-cache');
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function component(name: string, files: Record<string, string>): string {
  const dir = path.join(tmp, 'components', name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
  return dir;
}

const compA = component('a', {
  'main.tf': `
variable "name" { type = string }
resource "terraform_data" "x" { input = var.name }
output "id" { value = terraform_data.x.id }
output "greeting" { value = "hello \${terraform_data.x.output}" }
output "secret" {
  value     = "s3cret-\${var.name}"
  sensitive = true
}
`,
});
const compB = component('b', {
  'main.tf': `
variable "upstream" { type = string }
variable "token" {
  type      = string
  sensitive = true
}
resource "terraform_data" "x" { input = var.upstream }
output "seen" { value = terraform_data.x.output }
output "token_length" { value = nonsensitive(length(var.token)) }
`,
});
// a slow apply: local-exec is built into terraform, so still no download
const compSlow = component('slow', {
  'main.tf': `
resource "terraform_data" "s" {
  provisioner "local-exec" { command = "sleep 37" }
}
`,
});

const NAME = 'world ${not.a.reference} %{ if x }';
const TOKEN = 'tok-SECRET-4711';

function environmentSpec(): RootModuleSpec {
  return {
    resources: [
      { name: 'a', source: compA, inputs: { name: { literal: NAME } } },
      { name: 'b', source: compB, inputs: { upstream: { reference: 'a.greeting' }, token: { literal: TOKEN } }, sensitiveInputs: ['token'] },
    ],
    outputs: { a: readModuleInterface(compA).outputs, b: readModuleInterface(compB).outputs },
  };
}

interface Env {
  runner: (o?: { signal?: AbortSignal; lockTimeout?: string }) => TerraformRunner;
  lines: string[];
  workDir: string;
}

function environment(name: string, spec: RootModuleSpec, backend: (workDir: string) => TerraformBackend): Env {
  const workDir = path.join(tmp, 'envs', name);
  const root = generateRootModule(spec);
  writeRootModule(workDir, root);
  const lines: string[] = [];
  return {
    workDir,
    lines,
    runner: (o = {}) =>
      createTerraformRunner({
        bin,
        workDir,
        pluginCacheDir,
        backend: backend(workDir),
        env: root.env,
        secrets: [...root.secrets, NAME],
        onLine: (l) => lines.push(l),
        signal: o.signal,
        lockTimeout: o.lockTimeout,
        killGraceMs: 10_000,
      }),
  };
}

const processesRunning = (argv: string[]) =>
  fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .some((p) => {
      try {
        return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8') === `${argv.join('\0')}\0`;
      } catch {
        return false;
      }
    });

/** Cancels a slow apply once its provisioner runs, then checks the state is not left locked. */
async function cancelSlowApplyThenReplan(env: Env, checkAfterCancel: () => unknown = () => undefined) {
  const abort = new AbortController();
  const runner = env.runner({ signal: abort.signal });
  await runner.init();
  const plan = await runner.plan();
  const started = env.lines.length;
  const watcher = setInterval(() => {
    if (env.lines.slice(started).some((l) => l.includes('sleep 37'))) abort.abort();
  }, 20);
  try {
    await expect(runner.apply(plan.planFile)).rejects.toBeInstanceOf(AbortedError);
  } finally {
    clearInterval(watcher);
  }
  expect(env.lines.slice(started).join('\n')).toMatch(/Interrupt received|Gracefully shutting down/);
  // the provisioner's children went with it
  for (let i = 0; i < 50 && processesRunning(['sleep', '37']); i++) await new Promise((r) => setTimeout(r, 100));
  expect(processesRunning(['sleep', '37'])).toBe(false);
  await checkAfterCancel();
  // a new plan gets the lock at once (no waiting): nothing was left locked
  const again = await env.runner({ lockTimeout: '0s' }).plan();
  expect(again.summary.add).toBe(1);
}

describe('terraform runner (real CLI, local backend)', () => {
  const env = environment('stage1', environmentSpec(), () => ({ type: 'local', path: path.join(tmp, 'state', 'stage1.tfstate') }));
  let runner: TerraformRunner;

  beforeAll(async () => {
    runner = env.runner();
    await runner.init();
  });

  it('keeps sensitive inputs and the state out of the working directory files', () => {
    const files = fs.readdirSync(env.workDir).filter((f) => f.endsWith('.json'));
    expect(files.sort()).toEqual([BACKEND_FILE, 'main.tf.json'].sort());
    for (const f of files) expect(fs.readFileSync(path.join(env.workDir, f), 'utf8')).not.toContain(TOKEN);
    expect(JSON.parse(fs.readFileSync(path.join(env.workDir, BACKEND_FILE), 'utf8'))).toEqual({
      terraform: { backend: { local: { path: path.join(tmp, 'state', 'stage1.tfstate') } } },
    });
  });

  it('plans both resources, applies exactly that plan and exports outputs through references', async () => {
    const plan = await runner.plan();
    expect(plan.summary).toEqual({ add: 2, change: 0, destroy: 0, replace: 0 });
    expect(plan.changes).toEqual([
      { address: 'module.a.terraform_data.x', resource: 'a', actions: ['create'] },
      { address: 'module.b.terraform_data.x', resource: 'b', actions: ['create'] },
    ]);
    expect(fs.existsSync(plan.planFile)).toBe(true);
    await runner.apply(plan.planFile);

    const outputs = await runner.outputs();
    const byResource = outputsByResource(outputs);
    expect(byResource.a.greeting).toEqual({ value: `hello ${NAME}`, sensitive: false });
    expect(byResource.b.seen).toEqual(byResource.a.greeting);
    expect(byResource.a.secret).toEqual({ value: `s3cret-${NAME}`, sensitive: true });
    expect(byResource.b.token_length.value).toBe(TOKEN.length);
    expect(typeof byResource.a.id.value).toBe('string');
    expect(await runner.stateList()).toEqual(['module.a.terraform_data.x', 'module.b.terraform_data.x']);
    expect(fs.existsSync(path.join(tmp, 'state', 'stage1.tfstate'))).toBe(true);

    // the log went through the mask: the literal name is shown as *** everywhere
    const log = env.lines.join('\n');
    expect(log).toMatch(/Apply complete! Resources: 2 added/);
    expect(log).not.toContain(NAME);
    expect(log).toContain('***');
    expect(log).not.toContain(TOKEN);
  });

  it('plans no changes once applied', async () => {
    const plan = await runner.plan();
    expect(plan.hasChanges).toBe(false);
    expect(plan.summary).toEqual({ add: 0, change: 0, destroy: 0, replace: 0 });
  });

  it("refuses a stale plan with a TerraformError carrying terraform's message", async () => {
    const stale = await runner.plan({ destroy: true });
    const fresh = await runner.plan({ destroy: true, targets: [moduleAddress('b')] });
    expect(fresh.summary).toEqual({ add: 0, change: 0, destroy: 1, replace: 0 });
    await runner.apply(fresh.planFile);
    const err = await runner.apply(stale.planFile).catch((e) => e);
    expect(err).toBeInstanceOf(TerraformError);
    expect(err.message).toMatch(/stale/i);
    expect(await runner.stateList()).toEqual(['module.a.terraform_data.x']);
    // bring b back for the destroy tests
    await runner.apply((await runner.plan()).planFile);
    expect(await runner.stateList()).toHaveLength(2);
  });

  it('destroys one resource by target, then everything', async () => {
    await runner.destroy({ targets: [moduleAddress('b')] });
    expect(await runner.stateList()).toEqual(['module.a.terraform_data.x']);
    // terraform keeps root outputs through a targeted destroy; the state tells what is left
    const left = outputsByResource(await runner.outputs(), { state: await runner.stateList() });
    expect(Object.keys(left)).toEqual(['a']);
    await runner.destroy();
    expect(await runner.stateList()).toEqual([]);
    expect(await runner.outputs()).toEqual({});
  });

  it('reports configuration errors as TerraformError with the error line', async () => {
    const dir = path.join(tmp, 'envs', 'broken');
    writeRootModule(dir, { files: { 'main.tf.json': JSON.stringify({ module: { a: { source: compA } } }) } });
    const broken = createTerraformRunner({ bin, workDir: dir, pluginCacheDir, backend: { type: 'local', path: path.join(tmp, 'state', 'broken.tfstate') } });
    await broken.init();
    const err = await broken.plan().catch((e) => e);
    expect(err).toBeInstanceOf(TerraformError);
    expect(err.message).toMatch(/Error: Missing required argument/);
    expect(err.detail).toMatch(/"name" is required/);
  });

  it('a cancelled apply stops gracefully and leaves no lock: the next plan succeeds at once', async () => {
    const slow = environment('slow', { resources: [{ name: 'slow', source: compSlow, inputs: {} }] }, () => ({
      type: 'local',
      path: path.join(tmp, 'state', 'slow.tfstate'),
    }));
    // terraform removes its lock file only when it unlocks; a killed terraform leaves it behind
    await cancelSlowApplyThenReplan(slow, () => expect(fs.existsSync(path.join(tmp, 'state', '.slow.tfstate.lock.info'))).toBe(false));
  });

  it("runs terraform and what it starts with Go's collector set for short runs (GOGC=400, a soft memory limit)", async () => {
    const goEnv = component('go-env', {
      'main.tf': `
resource "terraform_data" "e" {
  provisioner "local-exec" { command = "echo gc=$GOGC limit=$GOMEMLIMIT" }
}
`,
    });
    const e = environment('go-env', { resources: [{ name: 'e', source: goEnv, inputs: {} }] }, () => ({
      type: 'local',
      path: path.join(tmp, 'state', 'go-env.tfstate'),
    }));
    const r = e.runner();
    await r.init();
    await r.applyNow();
    expect(GO_GC.GOGC).toBe('400');
    expect(GO_GC.GOMEMLIMIT).toMatch(/^[1-9]\d*MiB$/);
    // a quarter of the host's memory, or of the container's limit when that is less
    const GiB = 2 ** 30;
    expect([goMemLimit(16 * GiB, 2 * GiB), goMemLimit(16 * GiB, 2 ** 64), goMemLimit(16 * GiB, 0), goMemLimit(16 * GiB, undefined)]).toEqual([
      '512MiB',
      '4096MiB',
      '4096MiB',
      '4096MiB',
    ]);
    expect(e.lines.join('\n')).toContain(`gc=400 limit=${GO_GC.GOMEMLIMIT}`);
  });

  it('refuses to start when already cancelled', async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(env.runner({ signal: abort.signal }).plan()).rejects.toBeInstanceOf(AbortedError);
  });
});

describe('terraform runner in a box opened ahead (real bubblewrap)', () => {
  it('runs its next command in that box (one box a command), and a cancel reaches terraform there', async () => {
    const sandbox = createSandbox({ mode: 'bwrap' });
    const workDir = path.join(tmp, 'envs', 'opened');
    const root = generateRootModule({ resources: [{ name: 'slow', source: compSlow, inputs: {} }] });
    writeRootModule(workDir, root);
    fs.mkdirSync(pluginCacheDir, { recursive: true });
    sandbox.handOver(workDir, pluginCacheDir);
    const box = { sandbox, run: { mounts: [{ path: workDir, writable: true }, { path: pluginCacheDir, writable: true }, { path: compSlow }] } };
    const lines: string[] = [];
    // the boxes open ahead of their command, as a run's box opens while the run prepares
    const ran: string[] = [];
    const opened = (): OpenedBox => {
      const b = openBox(sandbox, { ...box.run, cwd: workDir });
      return {
        exec: (command, args, env, onPid) => {
          const p = b.exec(command, args, env, onPid);
          if (p) ran.push(args[0]!);
          return p;
        },
        close: b.close,
      };
    };
    let next: OpenedBox | undefined = opened();
    const abort = new AbortController();
    const runner = createTerraformRunner({
      bin,
      workDir,
      pluginCacheDir,
      backend: { type: 'local', path: path.join(workDir, 'terraform.tfstate') },
      env: root.env,
      onLine: (l) => lines.push(l),
      signal: abort.signal,
      killGraceMs: 10_000,
      box,
      openedBox: () => {
        const b = next;
        next = undefined;
        return b;
      },
    });
    await runner.init();
    expect(ran).toEqual(['init']);
    next = opened();
    const watcher = setInterval(() => {
      if (lines.some((l) => l.includes('sleep 37'))) abort.abort();
    }, 20);
    try {
      await expect(runner.applyNow()).rejects.toBeInstanceOf(AbortedError);
    } finally {
      clearInterval(watcher);
    }
    expect(ran).toEqual(['init', 'apply']);
    expect(lines.join('\n')).toMatch(/Interrupt received|Gracefully shutting down/);
    for (let i = 0; i < 50 && processesRunning(['sleep', '37']); i++) await new Promise((r) => setTimeout(r, 100));
    expect(processesRunning(['sleep', '37'])).toBe(false);
    expect(fs.existsSync(path.join(workDir, '.terraform.tfstate.lock.info'))).toBe(false);
  });
});

describe('terraform runner (real CLI, pg backend)', () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  let dbName = '';
  let connStr = '';

  beforeAll(async () => {
    if (!serverUrl) return;
    dbName = `gantry_tf_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${dbName}`;
    url.searchParams.set('sslmode', 'disable');
    connStr = url.toString();
  });

  afterAll(async () => {
    if (!serverUrl || !dbName) return;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  it('keeps state in PostgreSQL, outputs from it, and a cancel leaves no lock', async (ctx) => {
    ctx.skip(!serverUrl, 'TEST_DATABASE_URL is not set: the pg backend needs a PostgreSQL server (`npm test` runs this in its PostgreSQL pass)');
    const backend = (schemaName: string): TerraformBackend => ({ type: 'pg', connStr, schemaName });
    const env = environment('pg-stage', environmentSpec(), () => backend('tfstate_pg_stage'));
    const runner = env.runner();
    await runner.init();
    expect(fs.readFileSync(path.join(env.workDir, BACKEND_FILE), 'utf8')).not.toContain(dbName);
    const plan = await runner.plan();
    expect(plan.summary.add).toBe(2);
    await runner.apply(plan.planFile);
    const outputs = outputsByResource(await runner.outputs());
    expect(outputs.b.seen.value).toBe(`hello ${NAME}`);

    const c = new pg.Client({ connectionString: connStr });
    await c.connect();
    const { rows } = await c.query('select name from tfstate_pg_stage.states');
    await c.end();
    expect(rows.map((r) => r.name)).toEqual(['default']);
    // terraform's own files hold no connection string
    const walk = (d: string): string[] =>
      fs
        .readdirSync(d, { withFileTypes: true })
        .flatMap((e) => (e.isSymbolicLink() ? [] : e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
    for (const f of walk(env.workDir).filter((f) => !f.endsWith('.tfplan'))) expect(fs.readFileSync(f, 'utf8')).not.toContain(connStr);

    await runner.destroy();
    expect(await runner.stateList()).toEqual([]);

    const slow = environment('pg-slow', { resources: [{ name: 'slow', source: compSlow, inputs: {} }] }, () => backend('tfstate_pg_slow'));
    await cancelSlowApplyThenReplan(slow, async () => {
      // the pg backend locks with advisory locks: none may be held once terraform has stopped
      const db = new pg.Client({ connectionString: connStr });
      await db.connect();
      const locks = await db.query(
        "select count(*)::int as n from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())",
      );
      await db.end();
      expect(locks.rows[0].n).toBe(0);
    });
  });
});
