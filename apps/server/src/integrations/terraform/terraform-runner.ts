import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AbortedError, type Boxed } from '../executor/local-executor.js';
import { runTerraformProcess } from './terraform-process.js';
import { createMasker } from '../../platform/masking.js';
import { writeFileNoFollow, ensureRealDir } from '../executor/workspace-files.js';
import type { RootModule } from './root-module.js';
import type { OpenedBox } from '../executor/opened-box.js';

/** Where an environment's state lives. */
export type TerraformBackend =
  /** A state file (one per environment, in the data dir). */
  | { type: 'local'; path: string }
  /**
   * Terraform's built-in `pg` backend (no provider download): one schema per environment.
   * The connection string reaches terraform only as `PG_CONN_STR` in its environment.
   */
  | { type: 'pg'; connStr: string; schemaName: string };

export interface TerraformRunnerOptions {
  /** The terraform (or tofu) executable; config `TERRAFORM_BIN`. Default `terraform`. */
  bin?: string;
  /** The environment's root module directory (holds main.tf.json, .terraform and plan files). */
  workDir: string;
  /** Provider plugin cache of the project's environments, inside the data dir (created if missing). */
  pluginCacheDir: string;
  backend: TerraformBackend;
  /**
   * Extra environment for terraform: cloud credentials, `TF_VAR_…` of sensitive inputs. The only
   * way credentials reach terraform; they are never written to files. Apart from these, terraform
   * sees only PATH, HOME, TMPDIR, locale and proxy settings of this process.
   */
  env?: Record<string, string>;
  /** Values masked as `***` in every line given to `onLine` and in error messages. */
  secrets?: string[];
  /** Every log line of terraform (masked). Machine-readable output (`-json`) is never logged. */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  /** Cancels the running command: SIGINT to terraform, SIGKILL of its group after `killGraceMs`. */
  signal?: AbortSignal;
  /** Default 60 s: enough for a provider to finish its in-flight calls and terraform to save state. */
  killGraceMs?: number;
  /** `-lock-timeout`; default `30s`. */
  lockTimeout?: string;
  /**
   * The pid (= process group id) of the terraform process running now, and null when it ended:
   * a deployment records it so a recovery sweep can end the process its dead worker left behind.
   */
  onProcess?: (pid: number | null) => void;
  /**
   * Runs terraform in the sandbox with these mounts (module code may run `local-exec` provisioners
   * or `external` data sources: it is user code). Its HOME is then `<workDir>/.home` and its TMPDIR the box's /tmp.
   */
  box?: Boxed;
  /** A box of `box`'s mounts opened ahead, for the next command (each runs in a box of its own). */
  openedBox?: () => OpenedBox | undefined;
}

export type PlanAction = 'no-op' | 'create' | 'read' | 'update' | 'delete' | 'forget';

export interface PlanChange {
  /** The resource instance address, e.g. `module.web.terraform_data.x`. */
  address: string;
  /** The environment resource (top-level module name) it belongs to, if any. */
  resource?: string;
  /** Terraform's actions: `["create"]`, `["update"]`, `["delete"]`, `["delete","create"]` (replace)… */
  actions: PlanAction[];
}

export interface PlanSummary {
  /** As in terraform's "Plan: N to add, N to change, N to destroy" (a replacement counts in add and destroy). */
  add: number;
  change: number;
  destroy: number;
  /** How many of those are replacements. */
  replace: number;
}

export interface PlanResult {
  /** The saved plan: apply exactly this with `apply(planFile)`. Holds input values: keep it private, delete after use. */
  planFile: string;
  summary: PlanSummary;
  /** Every resource change other than no-op and read. */
  changes: PlanChange[];
  hasChanges: boolean;
}

export interface TerraformOutput {
  value: unknown;
  sensitive: boolean;
}

export interface TerraformRunner {
  readonly workDir: string;
  /** Writes the backend override file and runs `terraform init` (modules, backend). Run before each plan. */
  init(): Promise<void>;
  plan(opts?: { destroy?: boolean; targets?: string[]; planFile?: string }): Promise<PlanResult>;
  apply(planFile: string): Promise<void>;
  /** Plans and applies in one terraform run (`apply -auto-approve`): Quick Deploy, where no plan is shown first. */
  applyNow(): Promise<void>;
  destroy(opts?: { targets?: string[] }): Promise<void>;
  outputs(): Promise<Record<string, TerraformOutput>>;
  stateList(): Promise<string[]>;
}

export class TerraformError extends Error {
  constructor(
    readonly command: string,
    readonly exitCode: number,
    /** The last lines of terraform's error output (masked). */
    readonly detail: string,
  ) {
    super(`terraform ${command} failed (exit ${exitCode})${detail ? `: ${detail}` : ''}`);
    this.name = 'TerraformError';
  }
}

export { AbortedError };

/** Name of the backend file the runner writes (an override file, so it wins over any backend block). */
export const BACKEND_FILE = 'gantry_backend_override.tf.json';

const PASSED_THROUGH = [
  'PATH',
  'HOME',
  'TMPDIR',
  'LANG',
  'LC_ALL',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  // the server's operator may set terraform's (and its providers') garbage collector otherwise (below)
  'GOGC',
  'GOMEMLIMIT',
];

/**
 * Terraform and its providers are Go programs: with Go's default GOGC=100 a short apply spends about a fifth of its
 * CPU collecting garbage (5 terraform_data resources: 165 → 134 ms CPU at GOGC=400, median of 16 applies by hand).
 * The heap may grow to 5× what is live instead of 2× then; the soft limit (a quarter of the memory this process may
 * use: the host's, or its container's when that is less; in a run's group, its limit's) makes the collector work harder
 * again before one process takes more.
 */
/** A quarter of the memory a process may use (`constrained`: a container's limit; 0, undefined or more than the host's: none). */
export const goMemLimit = (total: number, constrained: number | undefined) => `${Math.floor(Math.min(total, constrained || Infinity) / 4 / 2 ** 20)}MiB`;
export const GO_GC = { GOGC: '400', GOMEMLIMIT: goMemLimit(os.totalmem(), process.constrainedMemory?.()) };

function backendSecrets(backend: TerraformBackend): string[] {
  if (backend.type !== 'pg') return [];
  const out = [backend.connStr];
  try {
    const url = new URL(backend.connStr);
    if (url.password) out.push(url.password, decodeURIComponent(url.password));
  } catch {
    const m = /password\s*=\s*('([^']*)'|(\S+))/.exec(backend.connStr);
    if (m) out.push(m[2] ?? m[3]);
  }
  return out;
}

/** Writes a generated root module into the environment's working directory. */
export function writeRootModule(workDir: string, root: Pick<RootModule, 'files'>): void {
  fs.mkdirSync(workDir, { recursive: true });
  for (const [name, content] of Object.entries(root.files)) writeFileNoFollow(path.join(workDir, name), content);
}

export function createTerraformRunner(o: TerraformRunnerOptions): TerraformRunner {
  const bin = o.bin ?? 'terraform';
  const lockTimeout = `-lock-timeout=${o.lockTimeout ?? '30s'}`;
  const mask = createMasker([...(o.secrets ?? []), ...backendSecrets(o.backend)]);
  const baseEnv: Record<string, string> = {};
  for (const k of PASSED_THROUGH) if (process.env[k] !== undefined) baseEnv[k] = process.env[k]!;
  const cliConfig = process.env.TF_CLI_CONFIG_FILE;
  if (cliConfig && fs.existsSync(cliConfig)) baseEnv.TF_CLI_CONFIG_FILE = cliConfig;
  if (o.box && o.box.sandbox.mode !== 'none') {
    baseEnv.HOME = path.join(o.workDir, '.home');
    baseEnv.TMPDIR = '/tmp';
  }
  const env: Record<string, string> = {
    ...GO_GC,
    ...baseEnv,
    ...o.env,
    TF_IN_AUTOMATION: '1',
    TF_INPUT: '0',
    TF_PLUGIN_CACHE_DIR: o.pluginCacheDir,
    CHECKPOINT_DISABLE: '1',
    ...(o.backend.type === 'pg' ? { PG_CONN_STR: o.backend.connStr, PG_SCHEMA_NAME: o.backend.schemaName } : {}),
  };
  if (o.backend.type !== 'pg') {
    // never let a stray PG_* setting of the caller's env redirect a local environment's state
    delete env.PG_CONN_STR;
    delete env.PG_SCHEMA_NAME;
  }

  /**
   * A run in a group with a memory limit (box-limits.ts): the collector's soft limit is a quarter of that, read as each
   * command starts (the group is sized for its project's plan once known), unless the operator set GOMEMLIMIT.
   */
  const envNow = () => {
    const grouped = o.box?.run.limits?.limits.memoryBytes;
    if (!grouped || process.env.GOMEMLIMIT !== undefined) return env;
    return { ...env, GOMEMLIMIT: goMemLimit(os.totalmem(), Math.min(grouped, process.constrainedMemory?.() || Infinity)) };
  };

  async function run(command: string, args: string[], capture = false): Promise<string> {
    const tail: string[] = [];
    const { code, stdout } = await runTerraformProcess(bin, args, {
      cwd: o.workDir,
      env: envNow(),
      signal: o.signal,
      killGraceMs: o.killGraceMs ?? 60_000,
      captureStdout: capture,
      onProcess: o.onProcess,
      box: o.box,
      opened: o.box ? o.openedBox?.() : undefined,
      onLine: (line, stream) => {
        const masked = mask(line);
        if (stream === 'stderr') {
          tail.push(masked.replace(/^[│╷╵]\s?/, '').trimEnd());
          if (tail.length > 60) tail.shift();
        }
        o.onLine?.(masked, stream);
      },
    });
    if (code !== 0) throw new TerraformError(command, code, diagnostics(tail));
    return stdout;
  }

  const targetArgs = (targets?: string[]) => {
    for (const t of targets ?? []) if (!/^[A-Za-z0-9_.\-[\]"]+$/.test(t)) throw new Error(`invalid target address "${t}"`);
    return (targets ?? []).map((t) => `-target=${t}`);
  };

  const runner: TerraformRunner = {
    workDir: o.workDir,

    async init() {
      fs.mkdirSync(o.workDir, { recursive: true });
      fs.mkdirSync(o.pluginCacheDir, { recursive: true });
      const backend = o.backend.type === 'local' ? { local: { path: path.resolve(o.backend.path) } } : { pg: {} }; // conn_str and schema_name come from PG_CONN_STR / PG_SCHEMA_NAME
      if (o.backend.type === 'local') fs.mkdirSync(path.dirname(path.resolve(o.backend.path)), { recursive: true });
      // a sandboxed run of this work dir may have left a link in the file's place: never write through it
      writeFileNoFollow(path.join(o.workDir, BACKEND_FILE), `${JSON.stringify({ terraform: { backend } }, null, 2)}\n`);
      // -reconfigure: the backend of an environment is Gantry's choice, never a migration prompt
      await run('init', ['init', '-input=false', '-no-color', lockTimeout, '-reconfigure']);
    },

    async plan(opts = {}) {
      const planFile = path.resolve(o.workDir, opts.planFile ?? path.join('plans', `${Date.now()}-${crypto.randomBytes(4).toString('hex')}.tfplan`));
      ensureRealDir(path.dirname(planFile), 0o700);
      o.box?.sandbox.handOver(path.dirname(planFile));
      await run('plan', [
        'plan',
        '-input=false',
        '-no-color',
        lockTimeout,
        `-out=${planFile}`,
        ...(opts.destroy ? ['-destroy'] : []),
        ...targetArgs(opts.targets),
      ]);
      // it holds the input values, sensitive ones included (in the box, its folder is the box's and 0700)
      if (!o.box) fs.chmodSync(planFile, 0o600);
      const shown = JSON.parse(await run('show', ['show', '-json', '-no-color', planFile], true)) as {
        resource_changes?: { address: string; module_address?: string; change: { actions: PlanAction[] } }[];
      };
      return { planFile, ...summarizePlan(shown.resource_changes ?? []) };
    },

    async apply(planFile) {
      await run('apply', ['apply', '-input=false', '-no-color', lockTimeout, '-auto-approve', path.resolve(o.workDir, planFile)]);
    },

    async applyNow() {
      await run('apply', ['apply', '-input=false', '-no-color', lockTimeout, '-auto-approve']);
    },

    async destroy(opts = {}) {
      await run('destroy', ['destroy', '-input=false', '-no-color', lockTimeout, '-auto-approve', ...targetArgs(opts.targets)]);
    },

    async outputs() {
      const raw = JSON.parse((await run('output', ['output', '-json', '-no-color'], true)) || '{}') as Record<string, { value: unknown; sensitive: boolean }>;
      return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, { value: v.value, sensitive: v.sensitive === true }]));
    },

    async stateList() {
      const out = await run('state list', ['state', 'list'], true);
      return out
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
    },
  };
  return runner;
}

/** Terraform's error diagnostics (from each `Error:` line on), or the last lines of its error output. */
function diagnostics(lines: string[]): string {
  const first = lines.findIndex((l) => l.startsWith('Error:'));
  const picked = first >= 0 ? lines.slice(first) : lines.slice(-5);
  const text = picked.filter((l) => l.trim()).join('\n');
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

/** Turns `terraform show -json` resource changes into a summary and a change list. */
export function summarizePlan(
  resourceChanges: { address: string; module_address?: string; change: { actions: PlanAction[] } }[],
): Omit<PlanResult, 'planFile'> {
  const summary: PlanSummary = { add: 0, change: 0, destroy: 0, replace: 0 };
  const changes: PlanChange[] = [];
  for (const rc of resourceChanges) {
    const actions = rc.change.actions;
    if (actions.every((a) => a === 'no-op' || a === 'read')) continue;
    if (actions.includes('create')) summary.add++;
    if (actions.includes('delete')) summary.destroy++;
    if (actions.includes('update')) summary.change++;
    if (actions.includes('create') && actions.includes('delete')) summary.replace++;
    const m = /^module\.([^.[]+)/.exec(rc.module_address ?? rc.address);
    changes.push({ address: rc.address, ...(m ? { resource: m[1] } : {}), actions });
  }
  return { summary, changes, hasChanges: changes.length > 0 };
}
