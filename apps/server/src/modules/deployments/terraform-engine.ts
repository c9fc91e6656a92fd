import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { SENSITIVE_PLACEHOLDER } from '@gantry/contracts';
import {
  createTerraformRunner, generateRootModule, writeRootModule, outputsByResource, moduleAddress, BACKEND_FILE,
  type TerraformBackend, type RootModuleResource, type TerraformRunner,
} from '../../integrations/terraform/index.js';
import type { StageRow } from '../stages/stages.store.js';
import type { DeploymentEngine, EngineRun, EnginePlan } from './engine.js';

export interface TerraformEngineOptions {
  bin: string;
  /** `<dataDir>/terraform`: one work dir per environment, the shared plugin cache, local state files. */
  root: string;
  /** PostgreSQL connection string: state in terraform's `pg` backend; unset → local state files. */
  pgConnStr?: string;
}

/**
 * The database URL as terraform's `pg` backend (Go's lib/pq) should read it: lib/pq requires SSL
 * unless told otherwise, node-postgres uses it only when asked, so a URL without `sslmode` means
 * no SSL for both; node-postgres' `no-verify` is lib/pq's `require` (encrypted, unverified).
 */
export function pgBackendConnStr(url: string): string {
  const u = new URL(url);
  const mode = u.searchParams.get('sslmode');
  if (!mode) u.searchParams.set('sslmode', 'disable');
  else if (mode === 'no-verify') u.searchParams.set('sslmode', 'require');
  return u.toString();
}

const resourceNames = (addresses: string[]) => [...new Set(addresses.map((a) => /^module\.([^.[]+)/.exec(a)?.[1]).filter((n): n is string => !!n))];

/**
 * The resources in a local state file, read as JSON (state format 4) rather than through
 * `terraform state list`: one terraform process less after every run. Undefined when the file is
 * in a format this does not know, so the caller asks terraform.
 */
async function readLocalState(file: string): Promise<string[] | undefined> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch {
    return []; // never applied
  }
  const state = JSON.parse(text) as { version?: number; resources?: { module?: string; instances?: unknown[] }[] };
  if (state.version !== 4) return undefined;
  return resourceNames((state.resources ?? []).filter((r) => r.module && r.instances?.length).map((r) => r.module!));
}

/** Terraform's action list as one word (delete + create is a replacement). */
const actionOf = (actions: string[]) => (actions.includes('delete') && actions.includes('create') ? 'replace' : actions.join('+'));

/** The Terraform engine: a generated root module per environment, run with the real CLI. */
export function createTerraformEngine(o: TerraformEngineOptions): DeploymentEngine & Required<Pick<DeploymentEngine, 'plan' | 'applyPlan'>> & { workDir(stageId: string): string } {
  const workDir = (stageId: string) => path.join(o.root, 'stages', stageId);
  const backend = (stageId: string): TerraformBackend =>
    o.pgConnStr ? { type: 'pg', connStr: pgBackendConnStr(o.pgConnStr), schemaName: `tfstate_${stageId.replace(/-/g, '')}` } : { type: 'local', path: path.join(o.root, 'state', `${stageId}.tfstate`) };

  function runner(stage: StageRow, extra: { env?: Record<string, string>; secrets?: string[]; log?: (l: string) => void; signal?: AbortSignal; onProcess?: (pid: number | null) => void } = {}): TerraformRunner {
    return createTerraformRunner({
      bin: o.bin, workDir: workDir(stage.id), pluginCacheDir: path.join(o.root, 'plugin-cache'), backend: backend(stage.id),
      env: extra.env, secrets: extra.secrets, onLine: extra.log ? (line) => extra.log!(line) : undefined, signal: extra.signal, onProcess: extra.onProcess,
    });
  }

  /** Writes the root module of the run's resources and initialises the work dir. */
  async function prepare(run: EngineRun) {
    const resources: RootModuleResource[] = run.resources.map((r) => ({
      name: r.name,
      source: r.dir,
      inputs: Object.fromEntries(r.inputs.map((i) => [i.key, i.reference ? { reference: String(i.value) } : { literal: i.value }])),
      sensitiveInputs: r.inputs.filter((i) => i.sensitive && !i.reference).map((i) => i.key),
    }));
    const root = generateRootModule({ resources, outputs: Object.fromEntries(run.resources.map((r) => [r.name, r.outputs])) });
    const dir = workDir(run.stage.id);
    fs.mkdirSync(dir, { recursive: true });
    for (const f of fs.readdirSync(dir)) if (f.endsWith('.tf.json') && f !== BACKEND_FILE) fs.rmSync(path.join(dir, f));
    writeRootModule(dir, root);
    const r = runner(run.stage, { env: { ...run.credentials, ...root.env }, secrets: [...Object.values(run.credentials), ...root.secrets], log: run.log, signal: run.signal, onProcess: run.onProcess });
    // init only when the module sources or the backend changed since the last run (versions are immutable)
    const initKey = crypto.createHash('sha256').update(JSON.stringify([resources.map((x) => [x.name, x.source]), backend(run.stage.id)])).digest('hex');
    const marker = path.join(dir, '.gantry-init');
    if (fs.existsSync(path.join(dir, '.terraform')) && fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === initKey) return r;
    run.log('$ terraform init');
    await r.init();
    fs.writeFileSync(marker, initKey);
    return r;
  }

  return {
    workDir,

    async plan(run): Promise<EnginePlan> {
      const r = await prepare(run);
      run.log('$ terraform plan');
      const p = await r.plan();
      return {
        planFile: p.planFile,
        summary: { add: p.summary.add, change: p.summary.change, destroy: p.summary.destroy },
        changes: p.changes.map((c) => ({ action: actionOf(c.actions), resourceName: c.resource ?? '', address: c.address })),
      };
    },

    async applyPlan(run, planFile) {
      const r = await prepare(run);
      run.log('$ terraform apply');
      await r.apply(planFile);
    },

    async deploy(run) {
      const r = await prepare(run);
      run.log('$ terraform apply');
      await r.applyNow();
    },

    async undeploy(run, resourceName) {
      const r = await prepare(run);
      run.log(resourceName ? `$ terraform destroy -target=${moduleAddress(resourceName)}` : '$ terraform destroy');
      await r.destroy(resourceName ? { targets: [moduleAddress(resourceName)] } : {});
    },

    async deployedResources(stage) {
      const b = backend(stage.id);
      const local = b.type === 'local' ? await readLocalState(b.path) : undefined;
      if (local) return local;
      if (!fs.existsSync(path.join(workDir(stage.id), '.terraform'))) return [];
      return resourceNames(await runner(stage).stateList());
    },

    async outputs(stage) {
      if (!fs.existsSync(path.join(workDir(stage.id), '.terraform'))) return {};
      const r = runner(stage);
      const grouped = outputsByResource(await r.outputs(), { state: await r.stateList() });
      return Object.fromEntries(Object.entries(grouped).map(([name, outs]) => [
        name,
        Object.entries(outs).map(([key, o]) => ({
          key, sensitive: o.sensitive,
          value: o.sensitive ? SENSITIVE_PLACEHOLDER : typeof o.value === 'string' ? o.value : JSON.stringify(o.value),
        })),
      ]));
    },
  };
}
