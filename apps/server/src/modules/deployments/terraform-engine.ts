import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { SENSITIVE_PLACEHOLDER } from '@gantry/contracts';
import {
  createTerraformRunner,
  generateRootModule,
  writeRootModule,
  outputsByResource,
  moduleAddress,
  BACKEND_FILE,
  type RootModuleResource,
  type TerraformRunner,
} from '../../integrations/terraform/index.js';
import type { Sandbox, SandboxRun } from '../../integrations/executor/sandbox.js';
import { openBox, type OpenedBox } from '../../integrations/executor/opened-box.js';
import { loopbackPortsOf, urlsIn } from '../../integrations/executor/box-network.js';
import { readFileInside, writeFileNoFollow, ensureRealDir } from '../../integrations/executor/workspace-files.js';
import type { SecretBox } from '../../platform/secrets.js';
import { killDescendants, limitHit, noCgroupWarning, type BoxGroup, type BoxLimitsPolicy } from '../../integrations/executor/box-limits.js';
import { createRunGroups } from '../../integrations/executor/run-groups.js';
import type { StageRow } from '../stages/stages.port.js';
import type { DeploymentEngine, EngineRun, EnginePlan, LeftState, WarmStart } from './engine.js';

export interface TerraformEngineOptions {
  bin: string;
  /** `<dataDir>/terraform`: one work dir per environment, a plugin cache per project, sealed plans. */
  root: string;
  /** Where terraform and the module code it runs execute (DESIGN §5). */
  sandbox: Sandbox;
  /** Seals state and plan files at rest (they hold sensitive inputs and outputs in plain text). */
  secrets: SecretBox;
  /** Sealed state per environment (the database: every worker host sees the same state). */
  states: {
    get(stageId: string): Promise<string | undefined>;
    put(stageId: string, sealed: string): Promise<void>;
  };
  /** State an older Gantry left in terraform's `pg` backend (schema `tfstate_<id>`), taken over once. */
  legacyPgState?: (stageId: string) => Promise<string | undefined>;
  /**
   * What a run's boxes may use together (box-limits.ts, the builds' sizes): terraform runs the modules' code (a
   * `local-exec` provisioner, an `external` data source). Each run's boxes get a group of their own, sized for its
   * project's plan. Absent: no limits.
   */
  boxLimits?: BoxLimitsPolicy;
}

/**
 * Boxes opened for the next run of the environments that ran last (a plan and its apply, a redeploy): that run's
 * terraform then starts without waiting for its box. Each holds an idle bwrap (and, with its own network, a pasta).
 */
const SPARE_BOXES = 2;
/** How often a run's group is looked at for a limit hit while terraform runs (then what its module code runs is killed). */
const LIMIT_WATCH_MS = 250;
/** A process's name (`comm`), as the host sees it ('' once it ended). */
const commOf = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};
/** A spare box is opened this long after its environment's run ended: not while that run's end is still written and told. */
const SPARE_AFTER_MS = 250;
/** …and closed when no run of its environment took it for this long. */
const SPARE_IDLE_MS = 10 * 60_000;

const resourceNames = (addresses: string[]) => [...new Set(addresses.map((a) => /^module\.([^.[]+)/.exec(a)?.[1]).filter((n): n is string => !!n))];

interface StateDocument {
  version?: number;
  outputs?: Record<string, { value: unknown; sensitive?: boolean }>;
  resources?: { module?: string; instances?: unknown[] }[];
}

/** The module addresses that have instances in a state (format 4), e.g. `module.web`. */
const deployedModules = (state: StateDocument) => (state.resources ?? []).filter((r) => r.module && r.instances?.length).map((r) => r.module!);

/** Terraform's action list as one word (delete + create is a replacement). */
const actionOf = (actions: string[]) => (actions.includes('delete') && actions.includes('create') ? 'replace' : actions.join('+'));

/**
 * The Terraform engine: a generated root module per environment, run with the real CLI in the
 * sandbox. An environment's state is sealed in the database; for the length of a run it is
 * unsealed into the run's work dir (the only place the box can write), and sealed back — with
 * what the run changed, failed or not — when terraform has ended. Plan files are sealed the same way.
 */
export function createTerraformEngine(o: TerraformEngineOptions): DeploymentEngine &
  Required<Pick<DeploymentEngine, 'plan' | 'applyPlan' | 'recoverState'>> & {
    workDir(stageId: string): string;
    /** Closes the boxes kept open for next runs (all, or one environment's). */
    closeSpareBoxes(stageId?: string): void;
    /** For a server stop (after its runs and spare boxes ended): waits for their groups' ends, and removes the parent left empty. */
    stopLimits(): Promise<void>;
    /** At start: removes the groups a crash of this instance left, but those of the environments `keep` answers (a run going on). */
    sweepGroups(keep: () => Promise<string[]>): Promise<void>;
  } {
  const workDir = (stageId: string) => path.join(o.root, 'stages', stageId);
  const stateFile = (stageId: string) => path.join(workDir(stageId), 'terraform.tfstate');
  const modulesDir = (stageId: string) => path.join(o.root, 'runs', stageId);
  /**
   * The provider plugin cache of a project's environments. One per project, not one for the instance: the box can
   * write its cache (terraform adds to it), and an environment's `.terraform/providers` links into it, so a module of one
   * project could otherwise replace a provider binary that another project's runs then execute with their credentials.
   */
  const pluginCacheDir = (stage: Pick<StageRow, 'projectId'>) => path.join(o.root, 'plugin-cache', stage.projectId);
  const sealedPlansDir = (stageId: string) => path.join(o.root, 'plans', stageId);
  const legacyStateFile = (stageId: string) => path.join(o.root, 'state', `${stageId}.tfstate`);

  /**
   * The groups of the boxes: one made with each box opened ahead (a spare box's, kept for its environment's next run,
   * is the group of the run that takes it), named `<this data dir's scope>-<environment id>-<random>` (another
   * instance's are its own to sweep), ended with the run (or the spare box no run took).
   */
  const groups = createRunGroups(o.boxLimits, { scopeDir: o.root });
  const newGroup = (stage: StageRow) => groups.of(`${stage.id}-${crypto.randomBytes(4).toString('hex')}`);
  /** A box opened ahead, in a group of its own. */
  type GroupedBox = { box: OpenedBox; group?: BoxGroup };
  const closeGrouped = (b: GroupedBox | undefined) => {
    if (!b) return Promise.resolve();
    b.box.close();
    return groups.end(b.group);
  };
  /** The group of each run's boxes, and the sizing by its project's plan (awaited before its first command). */
  const runGroups = new WeakMap<WarmStart, { group?: BoxGroup; sized: Promise<void> }>();
  const sizeFor = (stage: StageRow, group: BoxGroup | undefined) => groups.size(group, stage.projectId).catch(() => undefined);

  /**
   * The environment's state as JSON text, taking over a state file or `pg` schema an older Gantry left. `read`: its sealed
   * state as the run read it already (null: none stored).
   */
  async function loadState(stageId: string, read?: string | null): Promise<string | undefined> {
    const sealed = read === undefined ? await o.states.get(stageId) : (read ?? undefined);
    if (sealed) return o.secrets.open(sealed);
    const legacyFile = legacyStateFile(stageId);
    const legacy = fs.existsSync(legacyFile) ? fs.readFileSync(legacyFile, 'utf8') : await o.legacyPgState?.(stageId);
    if (!legacy) return undefined;
    await o.states.put(stageId, o.secrets.seal(legacy));
    for (const f of [legacyFile, `${legacyFile}.backup`]) await fs.promises.rm(f, { force: true });
    return legacy;
  }

  /**
   * Seals what the last run left in the work dir into the database, and removes every plain copy once it is stored.
   * `left`: the run's end stores it in its own transaction instead. Until then it waits under a name of its own
   * (`.sealing`), which only its `stored` removes: a next run of the environment writes the state file anew, never that one.
   */
  async function sealState(stageId: string, left?: (state: LeftState) => void): Promise<void> {
    const file = stateFile(stageId);
    const sealing = `${file}.sealing`;
    const isFile = (f: string) => fs.lstatSync(f, { throwIfNoEntry: false })?.isFile();
    // terraform's, else the one a run's end left unstored (its worker stopped before the commit)
    const from = isFile(file) ? file : isFile(sealing) ? sealing : undefined;
    const text = from && readFileInside(workDir(stageId), from).toString('utf8');
    // a few unlinks: not worth the thread pool's round trips on the way to the run's end
    const remove = (...files: string[]) => {
      for (const f of files) fs.rmSync(f, { force: true });
    };
    if (from === undefined || text === undefined) return remove(file, `${file}.backup`, sealing);
    const sealed = o.secrets.seal(text);
    if (left) {
      if (from !== sealing) fs.renameSync(from, sealing);
      remove(`${file}.backup`); // the state before the run: stored sealed already
      return left({ sealed, deployed: deployedIn(text), stored: () => remove(sealing) });
    }
    await o.states.put(stageId, sealed);
    remove(file, `${file}.backup`, sealing);
  }

  /** The resources deployed per a state's text (a state that does not parse tells nothing). */
  function deployedIn(text: string): string[] | undefined {
    try {
      return resourceNames(deployedModules(JSON.parse(text) as StateDocument));
    } catch {
      return undefined;
    }
  }

  /** What terraform's box shows of the host: the environment's work dir, the plugin cache, its unpacked versions. */
  function boxOf(stage: StageRow): Omit<SandboxRun, 'cwd'> {
    const cliConfig = [process.env.TF_CLI_CONFIG_FILE].find((f) => f && fs.existsSync(f));
    return {
      mounts: [
        { path: workDir(stage.id), writable: true },
        { path: pluginCacheDir(stage), writable: true },
        ...(fs.existsSync(modulesDir(stage.id)) ? [{ path: modulesDir(stage.id) }] : []),
        ...(cliConfig ? [{ path: cliConfig }] : []),
      ],
      // the admin's provider mirror or registry host in the CLI config, when on the host's loopback
      loopbackPorts: cliConfig ? loopbackPortsOf(...urlsIn(fs.readFileSync(cliConfig, 'utf8'))) : [],
    };
  }

  /** The boxes warmUp opened, until the first terraform command of their run takes one. */
  const openedBoxes = new WeakMap<WarmStart, OpenedBox>();
  const takeOpenedBox = (warm: WarmStart | undefined) => {
    const box = warm && openedBoxes.get(warm);
    if (box) openedBoxes.delete(warm);
    return box;
  };

  function runner(
    stage: StageRow,
    extra: {
      env?: Record<string, string>;
      secrets?: string[];
      log?: (l: string) => void;
      signal?: AbortSignal;
      onProcess?: (pid: number | null) => void;
      warm?: WarmStart;
      group?: BoxGroup;
    } = {},
  ): TerraformRunner {
    return createTerraformRunner({
      bin: o.bin,
      workDir: workDir(stage.id),
      pluginCacheDir: pluginCacheDir(stage),
      backend: { type: 'local', path: stateFile(stage.id) },
      env: extra.env,
      secrets: extra.secrets,
      onLine: extra.log ? (line) => extra.log!(line) : undefined,
      signal: extra.signal,
      onProcess: extra.onProcess,
      box: { sandbox: o.sandbox, run: { ...boxOf(stage), limits: extra.group } },
      openedBox: () => takeOpenedBox(extra.warm),
    });
  }

  /**
   * Opens a box of the environment's own, in a group of its own: every folder it shows exists before it opens (a first
   * run of the environment makes them here).
   */
  function openBoxOf(stage: StageRow): GroupedBox {
    ensureRealDir(workDir(stage.id), 0o755);
    ensureRealDir(pluginCacheDir(stage));
    ensureRealDir(modulesDir(stage.id));
    const group = newGroup(stage);
    try {
      return { box: openBox(o.sandbox, { ...boxOf(stage), cwd: workDir(stage.id), limits: group }), group };
    } catch (err) {
      void groups.end(group);
      throw err;
    }
  }
  const sandboxed = () => o.sandbox.mode !== 'none' && !o.sandbox.unavailable;

  /** The spare boxes, least recently opened first. */
  const spares = new Map<string, { box?: GroupedBox; timer: NodeJS.Timeout }>();
  /** The environment's spare box, if open by now (one still waiting to open is not: the run opens its own). */
  const takeSpare = (stageId: string) => {
    const spare = spares.get(stageId);
    spares.delete(stageId);
    clearTimeout(spare?.timer);
    return spare?.box;
  };
  const closeSpare = (stageId: string) => void closeGrouped(takeSpare(stageId));
  /** After a run of the environment: a box for its next one, opened a moment later. */
  function keepSpare(stage: StageRow) {
    if (!sandboxed()) return;
    closeSpare(stage.id);
    while (spares.size >= SPARE_BOXES) closeSpare(spares.keys().next().value!);
    const spare: { box?: GroupedBox; timer: NodeJS.Timeout } = {
      timer: setTimeout(() => {
        try {
          spare.box = openBoxOf(stage);
        } catch {
          return closeSpare(stage.id); // its folders are gone (the environment was removed meanwhile)
        }
        spare.timer = setTimeout(() => closeSpare(stage.id), SPARE_IDLE_MS).unref();
      }, SPARE_AFTER_MS).unref(),
    };
    spares.set(stage.id, spare);
  }

  /** Folders this process has handed over to the sandbox uid whole: work dirs, unpacked versions. */
  const handedOver = new Set<string>();
  /**
   * Gives the box what it must own or read. The first run of an environment in this process hands over its work
   * dir, the plugin cache and its unpacked versions whole; a later run only what the server wrote for it
   * (`wrote`) and the versions unpacked since: terraform's own files there are the sandbox uid's already, and
   * an unpacked version never changes (the box sees it read-only).
   */
  function handOver(run: EngineRun, wrote: string[]) {
    const dir = workDir(run.stage.id);
    if (handedOver.has(dir)) o.sandbox.handOverOnly(dir, ...wrote);
    else o.sandbox.handOver(dir, pluginCacheDir(run.stage), modulesDir(run.stage.id));
    for (const r of run.resources) {
      if (!handedOver.has(dir)) handedOver.add(r.dir);
      else if (!handedOver.has(r.dir)) {
        o.sandbox.handOverOnly(path.dirname(r.dir));
        o.sandbox.handOver(r.dir);
        handedOver.add(r.dir);
      }
    }
    handedOver.add(dir);
  }

  /**
   * Writes the root module of the run's resources, unseals the state into the work dir and
   * initialises it; `fn` runs terraform, and the state is sealed back whatever happens.
   */
  async function withRun<T>(run: EngineRun, what: 'deployment' | 'plan', fn: (r: TerraformRunner) => Promise<T>): Promise<T> {
    if (o.sandbox.unavailable) throw new Error(o.sandbox.unavailable);
    if (o.sandbox.warning) run.log(o.sandbox.warning);
    // the run's boxes' group: its box's, opened ahead (warmUp), else one of its own for this run
    const warmed = run.warm && runGroups.get(run.warm);
    const own = !warmed && sandboxed() ? newGroup(run.stage) : undefined;
    const group = warmed ? warmed.group : own;
    try {
      await (warmed ? warmed.sized : sizeFor(run.stage, group));
      if (group && o.boxLimits?.cgroups.kind === 'none') run.log(noCgroupWarning(o.boxLimits.cgroups.reason, group.limits, `this ${what}'s boxes run`));
      const before = group?.events();
      // a run during which a limit was hit fails saying so, whatever terraform answered (its fork refused, a provisioner OOM-killed)
      const hit = () => (group && before ? limitHit(before, group.events(), group.limits, `the ${what}`) : null);
      let result: T;
      const ending = group && before ? endModuleCodeWhenOver(run, group, hit) : undefined;
      try {
        result = await runIn(ending?.run ?? run, group, fn);
      } catch (err) {
        const reason = run.signal.aborted ? null : hit();
        throw reason ? new Error(`${reason} (${(err as Error).message})`) : err;
      } finally {
        ending?.stop();
      }
      const reason = hit();
      if (reason) throw new Error(reason);
      return result;
    } finally {
      await groups.end(own);
    }
  }

  /**
   * Once a run is over a limit (it fails, whatever terraform answers), what its module code runs in the group is killed,
   * again as it comes: a fork bomb's forks, or any process a provisioner left behind, hold terraform's output open for as
   * long as they live (its local-exec waits for them), and the run would stay running that long. Terraform itself and its
   * providers are left to end the run: they write its state. (A cancel needs none of it: terraform's local-exec then
   * stops waiting for its output, and what the box runs ends with terraform, its pid 1.) The run answered is the same
   * run, telling its terraform process (the root of what its box runs).
   */
  function endModuleCodeWhenOver(run: EngineRun, group: BoxGroup, hit: () => string | null) {
    let terraform: number | null = null;
    let killing: Promise<void> | undefined;
    const end = () => {
      if (terraform === null || killing) return;
      // a provider keeps what it runs (the external data source's program): it ends with it
      killing = killDescendants(group, terraform, (pid) => commOf(pid).startsWith('terraform-prov')).finally(() => (killing = undefined));
    };
    const watch = setInterval(() => hit() && end(), LIMIT_WATCH_MS);
    return {
      run: {
        ...run,
        onProcess: (pid: number | null) => {
          terraform = pid;
          run.onProcess?.(pid);
          if (pid !== null && hit()) end();
        },
      },
      stop: () => clearInterval(watch),
    };
  }

  async function runIn<T>(run: EngineRun, group: BoxGroup | undefined, fn: (r: TerraformRunner) => Promise<T>): Promise<T> {
    const resources: RootModuleResource[] = run.resources.map((r) => ({
      name: r.name,
      source: r.dir,
      inputs: Object.fromEntries(r.inputs.map((i) => [i.key, i.reference ? { reference: String(i.value) } : { literal: i.value }])),
      sensitiveInputs: r.inputs.filter((i) => i.sensitive && !i.reference).map((i) => i.key),
    }));
    const root = generateRootModule({ resources, outputs: Object.fromEntries(run.resources.map((r) => [r.name, r.outputs])) });
    const dir = workDir(run.stage.id);
    ensureRealDir(dir, 0o755);
    // the last run's box could write here: never write through what it left (links), replace it
    for (const f of fs.readdirSync(dir)) if (f.endsWith('.tf.json') && f !== BACKEND_FILE) fs.rmSync(path.join(dir, f), { recursive: true, force: true });
    writeRootModule(dir, root); // O_NOFOLLOW: never through a link the last run left
    for (const d of [path.join(dir, '.home'), pluginCacheDir(run.stage)]) ensureRealDir(d);
    const state = await loadState(run.stage.id, run.sealedState);
    if (state !== undefined) writeFileNoFollow(stateFile(run.stage.id), state, 0o600);
    handOver(run, [...Object.keys(root.files).map((f) => path.join(dir, f)), path.join(dir, '.home'), stateFile(run.stage.id)]);
    try {
      const r = runner(run.stage, {
        env: { ...run.credentials, ...root.env },
        secrets: [...Object.values(run.credentials), ...root.secrets],
        log: run.log,
        signal: run.signal,
        onProcess: run.onProcess,
        warm: run.warm,
        group,
      });
      // init only when the module sources changed since the last run (versions are immutable)
      const initKey = crypto
        .createHash('sha256')
        .update(JSON.stringify([resources.map((x) => [x.name, x.source]), 'sealed-state', 'project-plugin-cache']))
        .digest('hex');
      const marker = path.join(dir, '.gantry-init');
      const initialised =
        fs.existsSync(path.join(dir, '.terraform')) && fs.lstatSync(marker, { throwIfNoEntry: false })?.isFile() && fs.readFileSync(marker, 'utf8') === initKey;
      if (!initialised) {
        run.log('$ terraform init');
        await r.init();
        writeFileNoFollow(marker, initKey);
      }
      return await fn(r);
    } finally {
      await sealState(run.stage.id, run.onStateLeft);
      keepSpare(run.stage);
    }
  }

  /** The environment's state, parsed (never applied: an empty one). */
  async function stateOf(stageId: string): Promise<StateDocument> {
    const text = await loadState(stageId);
    return text ? (JSON.parse(text) as StateDocument) : {};
  }

  return {
    workDir,
    closeSpareBoxes(stageId) {
      for (const id of stageId ? [stageId] : [...spares.keys()]) closeSpare(id);
    },

    stopLimits: groups.stop,

    // `<environment id>-<random>`: an environment id is a uuid
    sweepGroups: (keep) => groups.sweep(keep, (key) => key.slice(0, -9)),

    /**
     * The run's box (bubblewrap, its namespaces and mounts): the one kept open since the environment's last run, or one
     * opened now, while the run prepares. Its first terraform command runs in it.
     */
    warmUp(stage) {
      if (!sandboxed()) return undefined;
      const opened = takeSpare(stage.id) ?? openBoxOf(stage);
      const warm: WarmStart = { close: () => closeGrouped(opened) };
      openedBoxes.set(warm, opened.box);
      // the limits follow the run's project (its plan may have changed since a spare box opened)
      runGroups.set(warm, { group: opened.group, sized: sizeFor(stage, opened.group) });
      return warm;
    },

    async plan(run): Promise<EnginePlan> {
      return withRun(run, 'plan', async (r) => {
        run.log('$ terraform plan');
        const p = await r.plan();
        // the plan holds every input value: sealed at rest, the plain file removed
        const dest = path.join(sealedPlansDir(run.stage.id), `${path.basename(p.planFile)}.sealed`);
        fs.mkdirSync(path.dirname(dest), { recursive: true, mode: 0o700 });
        fs.writeFileSync(dest, o.secrets.seal(readFileInside(workDir(run.stage.id), p.planFile).toString('base64')), { mode: 0o600 });
        await fs.promises.rm(p.planFile, { force: true });
        return {
          planFile: dest,
          summary: { add: p.summary.add, change: p.summary.change, destroy: p.summary.destroy },
          changes: p.changes.map((c) => ({ action: actionOf(c.actions), resourceName: c.resource ?? '', address: c.address })),
        };
      });
    },

    async applyPlan(run, sealedPlan) {
      const plans = path.join(workDir(run.stage.id), 'plans');
      const planFile = path.join(plans, path.basename(sealedPlan).replace(/\.sealed$/, ''));
      await withRun(run, 'deployment', async (r) => {
        ensureRealDir(plans, 0o700);
        writeFileNoFollow(planFile, Buffer.from(o.secrets.open(fs.readFileSync(sealedPlan, 'utf8')), 'base64'), 0o600);
        o.sandbox.handOver(plans);
        try {
          run.log('$ terraform apply');
          await r.apply(planFile);
        } finally {
          await fs.promises.rm(planFile, { force: true });
        }
      });
    },

    async deploy(run) {
      await withRun(run, 'deployment', async (r) => {
        run.log('$ terraform apply');
        await r.applyNow();
      });
    },

    async undeploy(run, resourceName) {
      await withRun(run, 'deployment', async (r) => {
        run.log(resourceName ? `$ terraform destroy -target=${moduleAddress(resourceName)}` : '$ terraform destroy');
        await r.destroy(resourceName ? { targets: [moduleAddress(resourceName)] } : {});
      });
    },

    /** A run whose worker died on this host left its state unsealed in the work dir (or waiting for its end to store it): it is the newest, keep it. */
    async recoverState(stage) {
      await sealState(stage.id);
    },

    async deployedResources(stage) {
      return resourceNames(deployedModules(await stateOf(stage.id)));
    },

    async outputs(stage) {
      const state = await stateOf(stage.id);
      const outputs = Object.fromEntries(Object.entries(state.outputs ?? {}).map(([k, v]) => [k, { value: v.value, sensitive: v.sensitive === true }]));
      const grouped = outputsByResource(outputs, { state: deployedModules(state) });
      return Object.fromEntries(
        Object.entries(grouped).map(([name, outs]) => [
          name,
          Object.entries(outs).map(([key, out]) => ({
            key,
            sensitive: out.sensitive,
            value: out.sensitive ? SENSITIVE_PLACEHOLDER : typeof out.value === 'string' ? out.value : JSON.stringify(out.value),
          })),
        ]),
      );
    },
  };
}
