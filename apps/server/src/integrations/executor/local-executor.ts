import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { readChildPid, type Sandbox, type SandboxRun } from './sandbox.js';
import { launch, type LaunchedProcess } from './launcher.js';

/** Where a process runs: in the sandbox with these mounts (cwd is the run's), or on the host as is. */
export interface Boxed {
  sandbox: Sandbox;
  run: Omit<SandboxRun, 'cwd'>;
}

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  onLine: (line: string, stream: 'stdout' | 'stderr') => void;
  signal: AbortSignal;
  /** How long a process group gets between SIGTERM and SIGKILL. */
  killGraceMs?: number;
  box?: Boxed;
}

export class AbortedError extends Error {
  constructor() {
    super('Stopped by user');
  }
}

/**
 * Spawns a command as the leader of its own process group, in the sandbox when `box` is given.
 * `onBoxPid` hears the host pid of the box's pid 1 (the command itself with `asPid1`). With
 * `launcher` it is spawned by the launcher process (launcher.ts): its pid is known at the `spawn` event.
 */
export function spawnProcess(
  command: string,
  args: string[],
  o: { cwd: string; env: Record<string, string>; box?: Boxed; onBoxPid?: (pid: number) => void; launcher: true },
): LaunchedProcess;
export function spawnProcess(
  command: string,
  args: string[],
  o: { cwd: string; env: Record<string, string>; box?: Boxed; onBoxPid?: (pid: number) => void; launcher?: false },
): ChildProcess;
export function spawnProcess(
  command: string,
  args: string[],
  o: { cwd: string; env: Record<string, string>; box?: Boxed; onBoxPid?: (pid: number) => void; launcher?: boolean },
): ChildProcess | LaunchedProcess {
  const wrapped = o.box ? o.box.sandbox.wrap(command, args, { ...o.box.run, cwd: o.cwd }) : { command, args, infoFd: false };
  if (o.launcher) {
    const launched = launch(wrapped.command, wrapped.args, { cwd: wrapped.infoFd ? '/' : o.cwd, env: o.env, infoFd: wrapped.infoFd });
    if (wrapped.infoFd) readChildPid(launched.stdio[3], (pid) => o.onBoxPid?.(pid));
    return launched;
  }
  const child = spawn(wrapped.command, wrapped.args, {
    cwd: wrapped.infoFd ? '/' : o.cwd,
    env: o.env,
    detached: true,
    stdio: wrapped.infoFd ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
  });
  if (wrapped.infoFd) readChildPid(child.stdio[3] as NodeJS.ReadableStream, (pid) => o.onBoxPid?.(pid));
  return child;
}

/** Reads a child's stdout and stderr by line; resolves once both have closed. */
export function readLines(
  child: Pick<ChildProcess, 'stdout' | 'stderr'>,
  onLine: RunOptions['onLine'],
  streams: ('stdout' | 'stderr')[] = ['stdout', 'stderr'],
): Promise<void> {
  return Promise.all(
    streams.map(
      (name) =>
        new Promise<void>((resolve) => {
          const rl = readline.createInterface({ input: child[name]!, crlfDelay: Infinity });
          rl.on('line', (line) => onLine(line, name));
          rl.once('close', () => resolve());
        }),
    ),
  ).then(() => undefined);
}

/**
 * Runs a command as the leader of its own process group (in the sandbox when `box` is given),
 * streaming its output by line; an abort ends the whole group (the step's every child), not only bash.
 */
export function runProcess(command: string, args: string[], o: RunOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    if (o.signal.aborted) return reject(new AbortedError());
    let child: ChildProcess;
    try {
      child = spawnProcess(command, args, o);
    } catch (err) {
      return reject(err);
    }
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch {
        /* already gone */
      }
    };
    const onAbort = () => {
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), o.killGraceMs ?? 5000);
    };
    o.signal.addEventListener('abort', onAbort, { once: true });
    const lines = readLines(child, o.onLine);
    child.once('error', (err) => {
      o.signal.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.once('close', async (code, sig) => {
      await lines;
      o.signal.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      killGroup('SIGKILL'); // background children the script left behind
      if (o.signal.aborted) return reject(new AbortedError());
      resolve(code ?? (sig ? 128 : 1));
    });
  });
}
