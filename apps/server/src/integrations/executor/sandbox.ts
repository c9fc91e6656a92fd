import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { inContainerUserNamespace } from './container-userns.js';
import { BOX_NETWORK_MISSING_HELP, BOX_NETWORK_WRAPPER, boxNetworkArgs, boxNetworkSetup, type BoxNetwork } from './box-network.js';
import { createNetworkPool, POOLED_BOX_WRAPPER, type PooledNetwork } from './box-network-pool.js';
import { joinCommand, type BoxGroup } from './box-limits.js';
import { userNamespaceFilterFile } from './userns-filter.js';

/** The descriptor bwrap reads the seccomp filter from (above those the box's network wrapper takes, from 10 up). */
const FILTER_FD = 222;

/**
 * The box every piece of user code runs in (build steps, git, terraform and what its modules
 * run): Debian's bubblewrap. Inside, the process
 *  - is an unprivileged uid (`uid`, 64000 by default) with no capabilities and no_new_privs: when
 *    Gantry runs as root that uid is real on the host (bwrap sets up the mounts as root, then
 *    `setpriv` drops to the uid); otherwise it is the uid of a new user namespace, mapped to the
 *    server's own user outside;
 *  - sees a read-only root made of the host's system folders (/usr, /etc, /opt and the merged-/usr
 *    links) plus only the folders the run names — everything else (the data dir, the secret key,
 *    other runs, the server's files and home) does not exist there;
 *  - has a private /tmp, /dev and /proc in its own pid, ipc and uts namespaces: no other process
 *    of the host is visible (no /proc/<pid>/environ), and when the run's first process ends, or
 *    the server dies (die-with-parent), the kernel ends every process left in the box;
 *  - gets only the environment the caller builds (never the server's own variables);
 *  - has a network of its own (box-network.ts, GANTRY_BOX_NETWORK=box): the internet and the LAN
 *    through passt's pasta, not the host's loopback (but for the ports Gantry hands the run and the
 *    admin's GANTRY_BOX_LOOPBACK_PORTS) nor the cloud metadata endpoints. GANTRY_BOX_NETWORK=host
 *    keeps the host's network namespace (the loopback and the metadata endpoint reachable).
 */
export type SandboxMode = 'bwrap' | 'none';

export interface SandboxMount {
  /** Host path, bound at the same path inside (so paths in logs and generated files stay valid). */
  path: string;
  writable?: boolean;
}

export interface SandboxRun {
  mounts: SandboxMount[];
  cwd: string;
  /**
   * The command is the box's pid 1 (terraform: it gets the SIGINT of a cancel itself; its host pid
   * comes from bwrap's info fd). Otherwise bwrap's own init reaps and the command is its child.
   */
  asPid1?: boolean;
  /**
   * Files the server wrote, shown read-only at another path of the box's read-only root (an
   * /etc/passwd naming the sandbox uid, which buildah looks itself up in). Only over paths that exist there.
   */
  files?: { source: string; target: string }[];
  /**
   * The run gets a user namespace of its own where the sandbox uid is root, and a read-only /sys:
   * what buildah needs to run RUN instructions (see container-userns.ts). Only when `containerBuilds`.
   */
  containerBuilder?: boolean;
  /** Ports of the host's loopback the run is handed an endpoint on (a clone URL, a registry): reachable on the box's own 127.0.0.1. */
  loopbackPorts?: number[];
  /** The run needs no network (git's local commands): with GANTRY_BOX_NETWORK=box its namespace has only its own loopback, and no pasta is started. */
  offline?: boolean;
  /**
   * The group whose limits the box runs under (box-limits.ts): its first process joins it before it execs
   * bwrap. A group of no cgroup (none writable here): the rlimits instead.
   */
  limits?: Pick<BoxGroup, 'joinFiles' | 'limits'>;
}

export interface WrappedCommand {
  command: string;
  args: string[];
  /** The child must get a pipe at fd 3: bwrap writes `{"child-pid": N}` (the box's pid 1 on the host) there. */
  infoFd: boolean;
}

export interface Sandbox {
  readonly mode: SandboxMode;
  /** Whether a box has a network of its own (`box`) or the host's (`host`). */
  readonly network: BoxNetwork;
  /** Why user code cannot run now (bwrap missing or not working), or null. */
  readonly unavailable: string | null;
  /** A line for the top of every log when user code runs unsandboxed. */
  readonly warning: string | null;
  /** The uid user code runs as in the box. */
  readonly uid: number;
  /** Whether a run may be a `containerBuilder` (a box started as root, or an unsandboxed root server). */
  readonly containerBuilds: boolean;
  wrap(command: string, args: string[], run: SandboxRun): WrappedCommand;
  /** Lets the sandbox uid write to folders the server created for a run (root only; a no-op otherwise). */
  handOver(...dirs: string[]): void;
  /** The same for these files and folders themselves, not what is below them. */
  handOverOnly(...paths: string[]): void;
  /** Makes a network ready for the next box handed these loopback ports (`networkPool`; a no-op otherwise). */
  warmNetwork(loopbackPorts?: number[]): void;
  /** How many networks are ready for a box handed these loopback ports. */
  readyNetworks(loopbackPorts?: number[]): number;
  /** Ends the networks made ready and not taken. */
  close(): void;
}

export const DEFAULT_SANDBOX_UID = 64000;
const SYSTEM_DIRS = ['/usr', '/etc', '/opt'];
const MERGED_USR_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];
/** Where /etc/resolv.conf points on systemd hosts. */
const RESOLVER_DIRS = ['/run/systemd/resolve'];

export const SANDBOX_MISSING_HELP =
  'Build steps and terraform runs need the sandbox (Debian package "bubblewrap": apt-get install bubblewrap). ' +
  "Install it, or set BUILD_SANDBOX=none to run them unsandboxed with the server's own rights (only for a single-user instance you trust).";
export const UNSANDBOXED_WARNING = "[gantry] WARNING: BUILD_SANDBOX=none — this runs unsandboxed with the Gantry server's own rights";

export function createSandbox(o: {
  mode: SandboxMode;
  uid?: number;
  bwrapBin?: string;
  isRoot?: boolean;
  /**
   * Host folders no run may see (the data dir): one inside a system folder the box shows read-only
   * (`/opt/gantry/data`) is covered by an empty tmpfs, under which only the run's own mounts appear.
   */
  hidden?: string[];
  /** `box` (default): each box gets a network of its own (box-network.ts); `host`: the host's. */
  network?: BoxNetwork;
  /** Host loopback ports every box may reach (GANTRY_BOX_LOOPBACK_PORTS), beside its run's own. */
  loopbackPorts?: number[];
  /** Where pasta is looked for (tests: a missing one). */
  pastaPath?: string;
  /**
   * Keep networks ready for the next boxes (box-network-pool.ts): a box then starts without waiting for pasta.
   * Only for a server running as root (it enters the namespace with nsenter); a worker's sandbox.
   */
  networkPool?: boolean;
}): Sandbox {
  const uid = o.uid ?? DEFAULT_SANDBOX_UID;
  const inSystemDir = (dir: string) => SYSTEM_DIRS.some((s) => dir === s || dir.startsWith(`${s}/`));
  const below = (dir: string, top: string) => dir.startsWith(`${top}/`);
  // Security fix: a data dir under /opt (or /etc, /usr) used to be visible through the read-only
  // system binds — every run could list it, read other builds' workspaces (all owned by the one
  // sandbox uid) and other environments' unsealed state, and, when the box runs as the server's own
  // user, the secret key. Hidden dirs outside the system folders are not in the box at all.
  const realOrResolved = (d: string) => {
    try {
      return fs.realpathSync(d);
    } catch {
      return path.resolve(d);
    }
  };
  // by real path: a data dir reached through a link into /opt is visible there too (and one that only looks to be there is not)
  const hidden = (o.hidden ?? []).map(realOrResolved).filter((d) => inSystemDir(d) && !SYSTEM_DIRS.includes(d));
  const bwrap = o.bwrapBin ?? 'bwrap';
  const isRoot = o.isRoot ?? process.getuid?.() === 0;
  const network: BoxNetwork = o.network ?? 'box';
  const ownNetwork = o.mode === 'bwrap' && network === 'box';
  const pool = ownNetwork && isRoot && o.networkPool ? createNetworkPool({ setup: (ports) => boxNetworkSetup({ isRoot, loopbackPorts: ports }) }) : undefined;
  const portsOf = (run: Pick<SandboxRun, 'loopbackPorts'>) => [...(o.loopbackPorts ?? []), ...(run.loopbackPorts ?? [])];

  /** The part of every box that does not depend on the run: namespaces, who, the system folders. Read from the host once. */
  let systemArgs: string[] | undefined;
  function systemPart(): string[] {
    if (systemArgs) return systemArgs;
    const args = [
      '--unshare-pid',
      '--unshare-ipc',
      '--unshare-uts',
      '--unshare-cgroup-try',
      '--hostname',
      'gantry-sandbox',
      '--die-with-parent',
      '--new-session',
    ];
    if (!isRoot) args.push('--unshare-user', '--uid', String(uid), '--gid', String(uid));
    for (const dir of SYSTEM_DIRS) if (fs.existsSync(dir)) args.push('--ro-bind', dir, dir);
    for (const link of MERGED_USR_LINKS) {
      const st = fs.lstatSync(link, { throwIfNoEntry: false });
      if (st?.isSymbolicLink()) args.push('--symlink', fs.readlinkSync(link), link);
      else if (st?.isDirectory()) args.push('--ro-bind', link, link);
    }
    for (const dir of RESOLVER_DIRS) args.push('--ro-bind-try', dir, dir);
    return (systemArgs = args);
  }

  /** `joined`: the box starts in a network made ready for it (the pool's), not one of its own. */
  function bwrapArgs(run: SandboxRun, joined: boolean): string[] {
    const args = [...systemPart(), ...(ownNetwork && !joined ? ['--unshare-net'] : [])];
    // the first process drops to the uid (setpriv), or, for a container build, maps it as root of a namespace of its own
    if (isRoot)
      args.push(...(run.containerBuilder ? ['--cap-add', 'ALL', '--ro-bind', '/sys', '/sys'] : ['--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID']));
    // hidden dirs are checked per run: the data dir's folders are made by the server as it goes
    for (const dir of hidden) if (fs.existsSync(dir)) args.push('--tmpfs', dir);
    // /tmp as a /tmp is (1777): bwrap makes a tmpfs 0755 and root's, which the sandbox uid cannot write (TMPDIR of every step)
    args.push('--proc', '/proc', '--dev', '/dev', '--perms', '1777', '--tmpfs', '/tmp');
    // the folders above a mount are made in the box's root, traversable: a 0700 data dir on the host must not lock the box out of its own workspace
    const parents = new Set<string>();
    for (const m of run.mounts) for (let d = path.dirname(m.path); d !== path.dirname(d); d = path.dirname(d)) parents.add(d);
    for (const dir of [...parents].sort((a, b) => a.length - b.length)) {
      // (below a hidden dir is the box's own tmpfs: writable until the root is remounted read-only)
      if ((!inSystemDir(dir) || hidden.some((h) => below(dir, h))) && dir !== '/tmp') args.push('--perms', '0755', '--dir', dir);
    }
    for (const m of run.mounts) args.push(m.writable ? '--bind' : '--ro-bind', m.path, m.path);
    for (const f of run.files ?? []) args.push('--ro-bind', f.source, f.target);
    // with a network of its own the wrapper names bwrap's info fd (and passes the pid on to fd 3)
    args.push('--remount-ro', '/', '--chdir', run.cwd, ...(ownNetwork && !run.offline && !joined ? [] : ['--info-fd', '3']));
    if (run.asPid1) args.push('--as-pid-1');
    return args;
  }

  const dropToUid = (command: string, args: string[]) =>
    isRoot
      ? ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--', command, ...args]
      : [command, ...args];

  /**
   * The command that starts a box: bwrap itself, or the network wrapper that execs it (in a ready network: `pooled`).
   * But for a container build (which makes its own), the box can make no user namespace (userns-filter.ts): bwrap is
   * exec'd with the filter's file open, and loads it.
   */
  function boxCommand(run: SandboxRun, inBox: string[], pooled?: PooledNetwork): { command: string; args: string[] } {
    const filtered = !run.containerBuilder;
    const args = [...(filtered ? ['--seccomp', String(FILTER_FD)] : []), ...bwrapArgs(run, !!pooled), '--', ...inBox];
    const started = (() => {
      if (!ownNetwork || run.offline) return { command: bwrap, args };
      const wrapper = pooled
        ? [POOLED_BOX_WRAPPER, 'gantry-box', String(pooled.keeperPid), String(pooled.fd), String(pooled.holderPid)]
        : [BOX_NETWORK_WRAPPER, 'gantry-box', ...boxNetworkArgs({ isRoot, loopbackPorts: portsOf(run) })];
      return { command: 'bash', args: ['--norc', '--noprofile', '-c', ...wrapper, bwrap, ...args] };
    })();
    if (!filtered) return started;
    // the filter's file open on its descriptor for what follows (the network's wrapper passes it on to bwrap)
    return {
      command: 'bash',
      args: ['--norc', '--noprofile', '-c', `exec "$@" ${FILTER_FD}<"$0"`, userNamespaceFilterFile(), started.command, ...started.args],
    };
  }

  // probed on first use (a worker asks at start; an API-only process, which runs no user code, never does)
  let probed: { reason: string | null } | undefined;
  const unavailable = () =>
    (probed ??= {
      reason:
        o.mode !== 'bwrap'
          ? null
          : ownNetwork && !onPath(o.pastaPath ?? 'pasta')
            ? BOX_NETWORK_MISSING_HELP
            : probe(bwrap, boxCommand({ mounts: [], cwd: '/' }, dropToUid('true', []))),
    }).reason;

  return {
    mode: o.mode,
    network,
    get unavailable() {
      return unavailable();
    },
    warning: o.mode === 'none' ? UNSANDBOXED_WARNING : null,
    uid,
    containerBuilds: isRoot,
    wrap(command, args, run) {
      if (run.containerBuilder && !isRoot) throw new Error('A container build needs the Gantry server to run as root');
      if (o.mode === 'none') return { command, args, infoFd: false };
      const reason = unavailable();
      if (reason) throw new Error(reason);
      const inBox = run.containerBuilder ? inContainerUserNamespace(uid, command, args) : dropToUid(command, args);
      const started = boxCommand(run, inBox, run.offline ? undefined : pool?.take(portsOf(run)));
      return { ...(run.limits ? joinCommand(run.limits, started.command, started.args) : started), infoFd: true };
    },
    warmNetwork(loopbackPorts = []) {
      if (pool && !unavailable()) pool.warm(portsOf({ loopbackPorts }));
    },
    readyNetworks: (loopbackPorts = []) => pool?.ready(portsOf({ loopbackPorts })) ?? 0,
    close() {
      pool?.close();
    },
    handOver(...dirs) {
      if (o.mode === 'none' || !isRoot) return;
      for (const dir of dirs) chownTree(dir, uid);
    },
    handOverOnly(...paths) {
      if (o.mode === 'none' || !isRoot) return;
      for (const p of paths) chownOne(p, uid);
    },
  };
}

/**
 * Runs `true` in an empty box once: a missing bwrap, a kernel without the namespaces or a network that
 * cannot be started shows here, not in a user's build.
 */
function probe(bwrap: string, box: { command: string; args: string[] }): string | null {
  const r = spawnSync(box.command, box.args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], timeout: 10_000, env: { PATH: '/usr/bin:/bin' } });
  if (r.error) return `${SANDBOX_MISSING_HELP} (${(r.error as NodeJS.ErrnoException).code === 'ENOENT' ? `${bwrap} was not found` : r.error.message})`;
  const err = String(r.stderr).trim();
  if (r.status !== 0 && err.startsWith('[gantry]')) return err.replace(/^\[gantry\] /, '');
  if (r.status !== 0) return `${SANDBOX_MISSING_HELP} (bubblewrap failed: ${err || `exit ${r.status ?? r.signal}`})`;
  return null;
}

/** Whether a command is found in the folders a box's tools are looked for in. */
function onPath(command: string) {
  const dirs = command.includes('/') ? [''] : ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];
  return dirs.some((d) => {
    try {
      fs.accessSync(d ? path.join(d, command) : command, fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * chown -R without following links (a link the box made must not hand over what it points at). What the
 * uid already owns is left as it is (a chown to the same owner still rewrites the inode), unless setuid or
 * setgid: the chown clears those bits.
 */
function chownTree(dir: string, uid: number) {
  const st = chownOne(dir, uid);
  if (!st?.isDirectory()) return;
  for (const entry of fs.readdirSync(dir)) chownTree(path.join(dir, entry), uid);
}

function chownOne(p: string, uid: number) {
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!st || st.isSymbolicLink()) return undefined;
  if (st.uid !== uid || st.gid !== uid || st.mode & 0o6000) fs.lchownSync(p, uid, uid);
  return st;
}

/** Reads bwrap's `{"child-pid": N}` from the info pipe: the host pid of the box's pid 1. */
export function readChildPid(stream: NodeJS.ReadableStream | null | undefined, onPid: (pid: number) => void) {
  if (!stream) return;
  let text = '';
  stream.on('data', (c: Buffer) => {
    text += c.toString('utf8');
    const m = /"child-pid"\s*:\s*(\d+)/.exec(text);
    if (m) {
      onPid(Number(m[1]));
      text = '';
    }
  });
  stream.on('error', () => undefined);
}
