import { readChildPid, type Sandbox, type SandboxRun } from './sandbox.js';
import { launch, type LaunchedProcess } from './launcher.js';

/**
 * The box's first process until it is handed its command: reads the command's arguments and its
 * environment (NUL-separated counts and fields) from stdin, then execs it with exactly that environment
 * and stdin /dev/null. It keeps the pid (the box's pid 1), so the command is pid 1 as if the box had been
 * spawned for it. A closed stdin before that ends the box with nothing run.
 */
const EXEC_RUNNER = String.raw`
IFS= read -r -d '' n || exit 125
a=(); for ((i = 0; i < n; i++)); do IFS= read -r -d '' x || exit 125; a+=("$x"); done
IFS= read -r -d '' n || exit 125
v=(); for ((i = 0; i < n; i++)); do IFS= read -r -d '' x || exit 125; v+=("$x"); done
exec env -i -- "${'$'}{v[@]}" "${'$'}{a[@]}" < /dev/null
`;

/**
 * A box opened before its command is known: bubblewrap (namespaces, mounts, the drop to the sandbox uid)
 * starts while the run still prepares, and `exec` then costs a write to its stdin and an exec instead of
 * a whole box. What the command gets is what `sandbox.wrap` gives a command spawned in a box of the same
 * `run`: the same mounts, uid and namespaces, the environment it is handed and nothing else, as pid 1.
 * One command per box.
 */
export interface OpenedBox {
  /**
   * Runs `command` in the box. The process answered is the box (bwrap, the leader of its own process group,
   * as a spawned box is); `onPid` hears the host pid of the command (the box's pid 1) once it is known.
   * Undefined when the box ended before (it failed to start): the caller spawns the command as usual.
   */
  exec(command: string, args: string[], env: Record<string, string>, onPid: (pid: number) => void): LaunchedProcess | undefined;
  /** Ends a box that was not handed a command (a no-op once it was). */
  close(): void;
}

export function openBox(sandbox: Sandbox, run: Omit<SandboxRun, 'asPid1'>): OpenedBox {
  const wrapped = sandbox.wrap('bash', ['-c', EXEC_RUNNER, 'gantry-exec'], { ...run, asPid1: true });
  const child = launch(wrapped.command, wrapped.args, { cwd: '/', env: { PATH: '/usr/bin:/bin' }, infoFd: wrapped.infoFd, stdin: true });
  child.stdin!.on('error', () => undefined);
  let boxPid: number | undefined;
  let onPid: ((pid: number) => void) | undefined;
  readChildPid(child.stdio[3], (pid) => {
    boxPid = pid;
    onPid?.(pid);
  });
  let used = false;
  let killWhenSpawned = false;
  const kill = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
      else killWhenSpawned = true;
    } catch {
      /* already gone */
    }
  };
  child.once('spawn', () => killWhenSpawned && kill());
  let ended = false;
  child.on('error', () => (ended = true));
  child.once('exit', () => (ended = true));

  return {
    exec(command, args, env, pidOf) {
      if (used) throw new Error('This box already ran its command');
      used = true;
      // env would take a command with '=' in its name for one more variable
      if (ended || command.includes('=')) {
        kill();
        return undefined;
      }
      const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
      child.stdin!.end([String(args.length + 1), command, ...args, String(vars.length), ...vars].map((f) => `${f}\0`).join(''));
      onPid = pidOf;
      if (boxPid !== undefined) pidOf(boxPid);
      return child;
    },
    close() {
      if (used) return;
      used = true;
      child.stdin!.end();
      kill();
    },
  };
}
