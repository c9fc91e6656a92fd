import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

/**
 * What one build's boxes may use together: memory (swap included), processes and CPU time. Without them a fork bomb
 * or a memory hog in one project's step starves every build of the instance and the server itself (the
 * boxes all run as the one sandbox uid, under the host's ulimits), and one busy build takes every core.
 *
 * How (detected once, `detectCgroups`):
 *  - cgroup v2 (unified, delegated to the server: systemd `Delegate=yes`): a group `gantry/<scope>-<build id>` (groupScope) below
 *    the server's own, with `memory.max`, `memory.swap.max` 0 and `pids.max`, and `cpu.max` and `cpu.weight` where the
 *    cpu controller is delegated too;
 *  - cgroup v1 (one hierarchy per controller): the same group in the `pids` and `memory` hierarchies, with
 *    `pids.max`, `memory.limit_in_bytes` and `memory.memsw.limit_in_bytes` where swap is accounted, and in the `cpu`
 *    hierarchy where it is writable, with `cpu.cfs_quota_us` (over a `cpu.cfs_period_us` of 100 ms) and `cpu.shares`;
 *  - neither writable (a container): no group. Each box's processes then get what rlimits can do, per
 *    process: RLIMIT_DATA (heap and private writable memory: not RLIMIT_AS, which the address space reserved
 *    by Go, Java or V8 passes at once) at the memory limit, and RLIMIT_NPROC, which counts every process of
 *    the sandbox uid (all boxes share it), at the process limit; no CPU limit. The build log says so once.
 * A box's first process writes its own pid into its group's `cgroup.procs` and only then execs bwrap
 * (`joinCommand`): nothing of the box ever runs outside it. When the build ends its group is emptied (every
 * process left is killed) and removed; a crash leaves groups that the next start sweeps (`sweep`).
 */
export interface BoxLimits {
  memoryBytes: number;
  processes: number;
  /** The CPUs the boxes may keep busy together (0.5: half of one core's time); 0: no CPU limit. */
  cpus: number;
}

export const GIB = 1024 ** 3;
/**
 * What a CI runner gives a job: 2 GiB, 1024 processes, 1 CPU; 8 GiB, 4096 and 2 CPUs for plans with
 * `biggerRuntimeEnvironments`.
 */
export const DEFAULT_BOX_LIMITS: BoxLimits = { memoryBytes: 2 * GIB, processes: 1024, cpus: 1 };
export const BIGGER_BOX_LIMITS: BoxLimits = { memoryBytes: 8 * GIB, processes: 4096, cpus: 2 };

/** The CPU controller's period: a group may run `cpus` × this much in each (cpu.max, cpu.cfs_quota_us). */
const CPU_PERIOD_US = 100_000;
/** A group's CPU time per period (µs), for `cpus` (none: 0); the kernel takes at least 1 ms. */
const cpuQuota = (cpus: number) => (cpus > 0 ? Math.max(1000, Math.round(cpus * CPU_PERIOD_US)) : 0);

/** "2g", "512M", "1.5GiB", "268435456" (bytes) → bytes; NaN when it is none of these. */
export function parseSize(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  if (!m) return NaN;
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 }[m[2]!.toLowerCase() as '' | 'k' | 'm' | 'g' | 't'];
  return Math.floor(Number(m[1]) * unit);
}

/** 2147483648 → "2 GiB", 67108864 → "64 MiB". */
export function formatSize(bytes: number): string {
  for (const [unit, size] of [
    ['TiB', 1024 ** 4],
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const)
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  return `${bytes} bytes`;
}

/** What the limits of a group did since it was made: OOM kills and refused forks. */
export interface LimitEvents {
  oomKills: number;
  forksRefused: number;
}

/** The group of one build's boxes. */
export interface BoxGroup {
  readonly name: string;
  /** The `cgroup.procs` files a box's first process writes its pid to (none: the rlimits apply instead). */
  readonly joinFiles: string[];
  readonly limits: BoxLimits;
  /** Sets other limits (a build's plan is known after its box was opened). */
  resize(limits: BoxLimits): void;
  events(): LimitEvents;
  /** Kills every process left in the group, then removes it. */
  end(): Promise<void>;
}

export interface Cgroups {
  readonly kind: 'v2' | 'v1' | 'none';
  /** Why no group can be made (kind none). */
  readonly reason: string | null;
  /** The group of a build's boxes, made now with these limits. */
  group(name: string, limits: BoxLimits): BoxGroup;
  /** The names of the groups there are (a crash's leftovers among them). */
  names(): string[];
  /** Empties and removes the group of that name (a crash's). */
  remove(name: string): Promise<void>;
  /** Removes the `gantry` parent when no group is left in it (a server's stop: nothing is left behind in its own group). */
  close(): void;
}

/**
 * The part of its groups' names that is one instance's (`<scope>-<build id>`): several Gantry servers may share a
 * host, and so the parent (v1's pids hierarchy is the host's own). A start sweeps only the groups of its own
 * data dir's builds; another instance's are its own to end.
 */
export const groupScope = (workspaceRoot: string) => {
  let real = path.resolve(workspaceRoot);
  try {
    real = fs.realpathSync(workspaceRoot);
  } catch {
    /* not made yet */
  }
  return `w${crypto.createHash('sha256').update(real).digest('hex').slice(0, 10)}`;
};

/** A name a group may have: a build's id. */
const GROUP_NAME = /^[A-Za-z0-9_.-]+$/;
export const PARENT = 'gantry';

/**
 * Finds the cgroups the server may make groups in: below its own group (`/proc/self/cgroup`), in
 * `root` (`/sys/fs/cgroup`). `kind` forces one (tests; `none` turns the groups off).
 */
export function detectCgroups(o: { root?: string; selfCgroup?: string; kind?: 'v2' | 'v1' | 'none' } = {}): Cgroups {
  const root = o.root ?? '/sys/fs/cgroup';
  let self: string;
  try {
    self = o.selfCgroup ?? fs.readFileSync('/proc/self/cgroup', 'utf8');
  } catch {
    return noCgroups('/proc/self/cgroup cannot be read');
  }
  const v2 = fs.existsSync(path.join(root, 'cgroup.controllers'));
  if (o.kind === 'none') return noCgroups('GANTRY_BUILD_CGROUPS=none');
  try {
    if ((o.kind ?? (v2 ? 'v2' : 'v1')) === 'v2') return unified(root, self);
    return perController(root, self);
  } catch (err) {
    return noCgroups((err as Error).message);
  }
}

function noCgroups(reason: string): Cgroups {
  return {
    kind: 'none',
    reason,
    group: (name, limits) => {
      let current = limits;
      return {
        name,
        joinFiles: [],
        get limits() {
          return current;
        },
        resize: (l) => void (current = l),
        events: () => ({ oomKills: 0, forksRefused: 0 }),
        end: async () => undefined,
      };
    },
    names: () => [],
    remove: async () => undefined,
    close: () => undefined,
  };
}

/** The server's own group in a hierarchy: `0::/path` (v2) or `N:…,controller,…:/path` (v1). */
function ownPath(self: string, controller: string | null): string | undefined {
  for (const line of self.split('\n')) {
    const [, controllers, p] = /^\d+:([^:]*):(.*)$/.exec(line.trim()) ?? [];
    if (p === undefined) continue;
    if (controller === null ? controllers === '' : controllers!.split(',').includes(controller)) return p;
  }
  return undefined;
}

const read = (file: string) => fs.readFileSync(file, 'utf8');
const write = (file: string, value: string) => fs.writeFileSync(file, value);
const tryWrite = (file: string, value: string) => {
  try {
    write(file, value);
    return true;
  } catch {
    return false;
  }
};
/** `key value` lines (memory.events, pids.events, memory.oom_control) → the value of `key`. */
const counter = (file: string, key: string) => {
  try {
    const m = new RegExp(`^${key} (\\d+)$`, 'm').exec(read(file));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
};

/** Makes a group and removes it again: the parent is writable. */
function probeParent(parents: string[]) {
  const probe = `probe-${process.pid}`;
  for (const p of parents) {
    fs.mkdirSync(path.join(p, probe));
    fs.rmdirSync(path.join(p, probe));
  }
}

function unified(root: string, self: string): Cgroups {
  const own = ownPath(self, null);
  if (own === undefined) throw new Error('the server is in no cgroup v2 group');
  const base = path.join(root, own);
  const parent = path.join(base, PARENT);
  const need = ['memory', 'pids'];
  const delegated = read(path.join(base, 'cgroup.controllers')).split(/\s+/);
  const missing = need.filter((c) => !delegated.includes(c));
  if (missing.length) throw new Error(`the cgroup v2 controllers ${missing.join(', ')} are not delegated to ${base}`);
  fs.mkdirSync(parent, { recursive: true });
  const enable = (dir: string, controllers: string[]) => {
    const on = read(path.join(dir, 'cgroup.subtree_control')).split(/\s+/);
    const off = controllers.filter((c) => !on.includes(c));
    if (off.length) write(path.join(dir, 'cgroup.subtree_control'), off.map((c) => `+${c}`).join(' '));
  };
  try {
    enable(base, need);
  } catch (err) {
    // a group with processes cannot hand controllers to its children ("no internal processes"): the
    // server's processes move to a leaf of their own beside the boxes' parent (what systemd's Delegate= expects)
    if ((err as NodeJS.ErrnoException).code !== 'EBUSY' || base === root) throw err;
    const leaf = path.join(base, 'gantry-server');
    fs.mkdirSync(leaf, { recursive: true });
    for (const pid of read(path.join(base, 'cgroup.procs')).split('\n').filter(Boolean)) tryWrite(path.join(leaf, 'cgroup.procs'), pid);
    enable(base, need);
  }
  enable(parent, need);
  // the CPU limit where the cpu controller is delegated too (the memory and process limits do without it)
  let cpu = delegated.includes('cpu');
  try {
    if (cpu) for (const dir of [base, parent]) enable(dir, ['cpu']);
  } catch {
    cpu = false;
  }
  probeParent([parent]);
  return groupsOver('v2', [
    {
      parent,
      apply: (dir, l) => {
        write(path.join(dir, 'memory.max'), String(l.memoryBytes));
        // no swap beyond it (a box swapping the host's memory away is not held by memory.max)
        tryWrite(path.join(dir, 'memory.swap.max'), '0');
        write(path.join(dir, 'pids.max'), String(l.processes));
        if (!cpu) return;
        write(path.join(dir, 'cpu.max'), `${cpuQuota(l.cpus) || 'max'} ${CPU_PERIOD_US}`);
        // under contention, groups share the cores by their limits (100: the default, one CPU's)
        write(path.join(dir, 'cpu.weight'), String(l.cpus > 0 ? Math.min(10_000, Math.max(1, Math.round(100 * l.cpus))) : 100));
      },
      events: (dir) => ({ oomKills: counter(path.join(dir, 'memory.events'), 'oom_kill'), forksRefused: counter(path.join(dir, 'pids.events'), 'max') }),
    },
  ]);
}

function perController(root: string, self: string): Cgroups {
  const parents = ['pids', 'memory'].map((c) => {
    const own = ownPath(self, c);
    const mount = path.join(root, c);
    if (own === undefined || !fs.existsSync(path.join(mount, 'cgroup.procs'))) throw new Error(`no cgroup v1 ${c} hierarchy at ${mount}`);
    return path.join(mount, own, PARENT);
  }) as [string, string];
  for (const p of parents) fs.mkdirSync(p, { recursive: true });
  probeParent(parents);
  const [pids, memory] = parents;
  // the CPU limit where the cpu hierarchy is there and writable (the memory and process limits do without it)
  const cpu = (() => {
    const own = ownPath(self, 'cpu');
    const mount = path.join(root, 'cpu');
    if (own === undefined || !fs.existsSync(path.join(mount, 'cpu.cfs_quota_us'))) return [];
    const parent = path.join(mount, own, PARENT);
    try {
      fs.mkdirSync(parent, { recursive: true });
      probeParent([parent]);
    } catch {
      return [];
    }
    const controller: Controller = {
      parent,
      apply: (dir, l) => {
        write(path.join(dir, 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
        write(path.join(dir, 'cpu.cfs_quota_us'), String(cpuQuota(l.cpus) || -1));
        // under contention, groups share the cores by their limits (1024: the default, one CPU's)
        write(path.join(dir, 'cpu.shares'), String(l.cpus > 0 ? Math.max(2, Math.round(1024 * l.cpus)) : 1024));
      },
    };
    return [controller];
  })();
  return groupsOver('v1', [
    {
      parent: pids,
      apply: (dir, l) => write(path.join(dir, 'pids.max'), String(l.processes)),
      events: (dir) => ({ forksRefused: counter(path.join(dir, 'pids.events'), 'max') }),
    },
    {
      parent: memory,
      apply: (dir, l) => {
        const memsw = path.join(dir, 'memory.memsw.limit_in_bytes');
        const swapAccounted = fs.existsSync(memsw);
        // memsw may never be below the memory limit: raised first when growing, after when shrinking
        if (swapAccounted) tryWrite(memsw, String(l.memoryBytes));
        write(path.join(dir, 'memory.limit_in_bytes'), String(l.memoryBytes));
        if (swapAccounted) write(memsw, String(l.memoryBytes));
      },
      // oom_kill is counted since Linux 4.13; before, under_oom is the sign
      events: (dir) => ({
        oomKills: counter(path.join(dir, 'memory.oom_control'), 'oom_kill') || counter(path.join(dir, 'memory.oom_control'), 'under_oom'),
      }),
    },
    ...cpu,
  ]);
}

/**
 * What one controller does in a group: the parent of the groups in its hierarchy (v2: one hierarchy, the same parent
 * for every controller), the limits it writes in a group's folder, and what it counts there.
 */
interface Controller {
  parent: string;
  apply(dir: string, limits: BoxLimits): void;
  events?(dir: string): Partial<LimitEvents>;
}

/** The groups of boxes, each a folder of its name below every controller's parent (the same folder for all, on v2). */
function groupsOver(kind: 'v2' | 'v1', controllers: Controller[]): Cgroups {
  const parents = [...new Set(controllers.map((c) => c.parent))];
  const dirsOf = (name: string) => parents.map((p) => path.join(p, name));
  const v2 = kind === 'v2';
  return {
    kind,
    reason: null,
    group(name, limits) {
      if (!GROUP_NAME.test(name)) throw new Error(`Not a group name: ${name}`);
      const dirs = dirsOf(name);
      for (const d of dirs) makeDir(d);
      let current = limits;
      const apply = (l: BoxLimits) => {
        for (const c of controllers) c.apply(path.join(c.parent, name), l);
        current = l;
      };
      apply(limits);
      return {
        name,
        joinFiles: dirs.map((d) => path.join(d, 'cgroup.procs')),
        get limits() {
          return current;
        },
        resize: apply,
        events: () => Object.assign({ oomKills: 0, forksRefused: 0 }, ...controllers.map((c) => c.events?.(path.join(c.parent, name)) ?? {})) as LimitEvents,
        end: () => removeGroup(dirs, v2),
      };
    },
    names: () => [...new Set(parents.flatMap(listGroups))],
    remove: (name) => (GROUP_NAME.test(name) ? removeGroup(dirsOf(name), v2) : Promise.resolve()),
    close: () => removeParents(parents),
  };
}

/** (another process of the host may still have groups in it: then it stays) */
function removeParents(parents: string[]) {
  for (const p of parents)
    try {
      fs.rmdirSync(p);
    } catch {
      /* in use, or gone */
    }
}

/** mkdir -p, again when another instance's stop removed the (empty) parent between the two mkdirs. */
function makeDir(dir: string) {
  for (let attempt = 0; ; attempt++)
    try {
      fs.mkdirSync(dir, { recursive: true });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw err;
    }
}

function listGroups(parent: string): string[] {
  try {
    return fs
      .readdirSync(parent, { withFileTypes: true })
      .filter((e) => e.isDirectory() && GROUP_NAME.test(e.name))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Kills what is left in the group (a box's end normally took everything with it: its pid namespace ends
 * with its first process), then removes it. v2 has `cgroup.kill`; on v1 the group's processes are killed
 * until none is left (a fork bomb's forks are held by pids.max: it runs out of new ones).
 */
async function removeGroup(dirs: readonly string[], v2: boolean): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    let left = 0;
    for (const dir of dirs) {
      if (!fs.existsSync(dir)) continue;
      let procs: string[];
      try {
        procs = read(path.join(dir, 'cgroup.procs')).split('\n').filter(Boolean);
      } catch {
        procs = [];
      }
      if (procs.length) {
        left += procs.length;
        if (!(v2 && tryWrite(path.join(dir, 'cgroup.kill'), '1')))
          for (const pid of procs) {
            try {
              process.kill(Number(pid), 'SIGKILL');
            } catch {
              /* gone */
            }
          }
        continue;
      }
      try {
        fs.rmdirSync(dir);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') continue;
        if (code !== 'EBUSY') throw err;
        left++; // its last processes are still exiting
      }
    }
    if (!left) return;
    await pause(attempt < 20 ? 5 : 25);
  }
  throw new Error(`The cgroup ${dirs[0]} could not be emptied`);
}

/** The processes in a group now (the host's pids; none without a cgroup). */
export function groupPids(group: Pick<BoxGroup, 'joinFiles'>): number[] {
  try {
    return group.joinFiles.length ? read(group.joinFiles[0]!).split('\n').filter(Boolean).map(Number) : [];
  } catch {
    return []; // removed
  }
}

/**
 * Kills the processes of the group that descend from `root` (the host's pid of a box's first process: in its pid
 * namespace, what its processes leave behind is its child too), but `root` itself and those `spare` names (and what
 * they run), again until none is left: a fork bomb's forks are killed as they come.
 */
export async function killDescendants(group: Pick<BoxGroup, 'joinFiles'>, root: number, spare: (pid: number) => boolean): Promise<void> {
  const parentOf = (pid: number) => {
    try {
      // `pid (comm) state ppid …`: the name may hold spaces and parentheses, the last ')' ends it
      const stat = read(`/proc/${pid}/stat`);
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return 0; // gone
    }
  };
  const doomed = (pid: number) => {
    for (let p = pid, parent = parentOf(p); p > 1; p = parent, parent = parentOf(p)) {
      if (p === root) return false;
      if (parent === root) return !spare(p);
    }
    return false;
  };
  for (let round = 0; round < 40; round++) {
    const victims = groupPids(group).filter(doomed);
    if (!victims.length) return;
    for (const pid of victims)
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    await pause(round < 10 ? 5 : 25);
  }
}

/**
 * The command that runs `command` inside the group: a shell that writes its own pid into the group's
 * `cgroup.procs` files, then execs it (so bwrap, and everything the box starts, is in the group from its
 * first instruction on). Without a group: `prlimit` sets the rlimits instead (see above).
 */
export function joinCommand(group: Pick<BoxGroup, 'joinFiles' | 'limits'>, command: string, args: string[]): { command: string; args: string[] } {
  if (group.joinFiles.length)
    return {
      command: '/bin/sh',
      args: [
        '-c',
        'while [ "$1" != -- ]; do echo $$ > "$1" || { echo "[gantry] The box could not join its cgroup $1" >&2; exit 125; }; shift; done; shift; exec "$@"',
        'gantry-limits',
        ...group.joinFiles,
        '--',
        command,
        ...args,
      ],
    };
  return { command: 'prlimit', args: [`--data=${group.limits.memoryBytes}`, `--nproc=${group.limits.processes}`, '--', command, ...args] };
}

/**
 * Why a step (or what else ran in the group: `what`, "the deployment") failed, when a limit of its group was hit while
 * it ran (`before`: the group's events at its start).
 */
export function limitHit(before: LimitEvents, after: LimitEvents, limits: BoxLimits, what = 'the step'): string | null {
  if (after.oomKills > before.oomKills) return `A process was killed: ${what} went over its memory limit of ${formatSize(limits.memoryBytes)}`;
  if (after.forksRefused > before.forksRefused)
    return `${what[0]!.toUpperCase()}${what.slice(1)} hit its limit of ${limits.processes} processes (a fork was refused)`;
  return null;
}

/** The log's line when boxes run without a group (`boxesRun`: "this build's box runs", "this deployment's boxes run"). */
export const noCgroupWarning = (reason: string | null, limits: BoxLimits, boxesRun = "this build's box runs") =>
  `[gantry] WARNING: ${boxesRun} without a memory or process limit of its own (${reason ?? 'no cgroup can be made here'}): ` +
  `only each process's data is held to ${formatSize(limits.memoryBytes)} and the sandbox user to ${limits.processes} processes`;

/**
 * The limits of one kind of run's boxes (builds, deployments): the cgroups, the two sizes, and which a project gets
 * (`bigger` for a plan with biggerRuntimeEnvironments).
 */
export interface BoxLimitsPolicy {
  cgroups: Cgroups;
  normal: BoxLimits;
  bigger: BoxLimits;
  /** Whether the project's plan gives bigger boxes: read, or as `known` (the plan as a trigger read it already). */
  isBigger: (projectId: string, known?: PlanLimits) => Promise<boolean>;
}

/** What of a project's plan sizes its boxes. */
export type PlanLimits = { biggerRuntimeEnvironments?: unknown };

/** The policy the GANTRY_BUILD_* settings give (README): builds' and deployments' boxes get the same. */
export function boxLimitsPolicy(
  config: {
    GANTRY_BUILD_CGROUPS: 'auto' | 'none';
    GANTRY_BUILD_MEMORY: number;
    GANTRY_BUILD_PROCESSES: number;
    GANTRY_BUILD_CPUS: number;
    GANTRY_BUILD_MEMORY_BIGGER: number;
    GANTRY_BUILD_PROCESSES_BIGGER: number;
    GANTRY_BUILD_CPUS_BIGGER: number;
  },
  /** The project's plan, read. */
  planOf: (projectId: string) => Promise<PlanLimits>,
): BoxLimitsPolicy {
  return {
    cgroups: detectCgroups(config.GANTRY_BUILD_CGROUPS === 'none' ? { kind: 'none' } : {}),
    normal: { memoryBytes: config.GANTRY_BUILD_MEMORY, processes: config.GANTRY_BUILD_PROCESSES, cpus: config.GANTRY_BUILD_CPUS },
    bigger: { memoryBytes: config.GANTRY_BUILD_MEMORY_BIGGER, processes: config.GANTRY_BUILD_PROCESSES_BIGGER, cpus: config.GANTRY_BUILD_CPUS_BIGGER },
    isBigger: async (projectId, known) => !!(known ?? (await planOf(projectId))).biggerRuntimeEnvironments,
  };
}
