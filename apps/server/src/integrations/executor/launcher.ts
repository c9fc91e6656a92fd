import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/**
 * Spawns commands from a small helper process instead of the server's own. `spawn` forks the calling
 * process, and a fork costs in proportion to its memory: from the server (PGlite's heap, ~700 MB) one
 * took 55–115 ms of blocked event loop per terraform run, from the ~40 MB launcher a few ms. The
 * launched process is the same as a direct spawn's (own process group, pipes, bwrap's info fd); its
 * output arrives over IPC in order, and signals go to its pid directly (`process.kill`).
 */
export interface LaunchedProcess extends EventEmitter {
  /** Known once the `spawn` event was emitted (undefined when the command could not be started). */
  pid?: number;
  readonly stdout: PassThrough;
  readonly stderr: PassThrough;
  /** stdin when asked for (`stdin: true`, written through to the process), else /dev/null. */
  readonly stdin: Writable | null;
  /** [3] is bwrap's info fd when asked for. */
  readonly stdio: [Writable | null, PassThrough, PassThrough, PassThrough?];
}

type FromLauncher =
  | { type: 'spawned'; id: number; pid: number | null }
  | { type: 'data'; id: number; fd: 1 | 2 | 3; data: string }
  | { type: 'error'; id: number; message: string; code?: string }
  | { type: 'exit' | 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };

const CHILD = fileURLToPath(new URL('./launcher-child.mjs', import.meta.url));

let launcher: ChildProcess | undefined;
let nextId = 1;
const live = new Map<number, LaunchedProcess>();

/** The launcher of this process, started on first use (or by `startLauncher`, while the server is still small). */
function launcherProcess(): ChildProcess {
  if (launcher?.connected) return launcher;
  const child = fork(CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [], serialization: 'json' });
  child.on('message', (m: FromLauncher) => route(m));
  // the launcher died (killed from outside): its processes' pipes are gone with it
  child.once('exit', () => {
    if (launcher === child) launcher = undefined;
    for (const [id, p] of live) {
      live.delete(id);
      p.emit('error', new Error('The process launcher stopped'));
      end(p, null, 'SIGKILL');
    }
  });
  child.unref();
  (child.channel as unknown as { unref(): void } | undefined)?.unref();
  launcher = child;
  return child;
}

/** Keeps the IPC channel from holding the event loop open while nothing runs. */
function holdChannel(hold: boolean) {
  const ch = launcher?.channel as unknown as { ref(): void; unref(): void } | undefined;
  if (hold) ch?.ref();
  else ch?.unref();
}

function end(p: LaunchedProcess, code: number | null, signal: NodeJS.Signals | null) {
  for (const s of [p.stdout, p.stderr, p.stdio[3]]) s?.end();
  // 'close' after the streams have ended, as a ChildProcess emits it
  setImmediate(() => p.emit('close', code, signal));
}

function route(m: FromLauncher) {
  const p = live.get(m.id);
  if (!p) return;
  switch (m.type) {
    case 'spawned':
      if (m.pid !== null) {
        p.pid = m.pid;
        p.emit('spawn');
      }
      break;
    case 'data':
      (m.fd === 1 ? p.stdout : m.fd === 2 ? p.stderr : p.stdio[3])?.write(Buffer.from(m.data, 'base64'));
      break;
    case 'error':
      p.emit('error', Object.assign(new Error(m.message), m.code ? { code: m.code } : {}));
      break;
    case 'exit':
      p.emit('exit', m.code, m.signal);
      break;
    case 'close':
      live.delete(m.id);
      if (!live.size) holdChannel(false);
      end(p, m.code, m.signal);
      break;
  }
}

/** Starts the launcher now (a worker does at start, before its heap grows). */
export function startLauncher(): void {
  launcherProcess();
}

/** Spawns `command` as the leader of its own process group through the launcher; stdin is /dev/null unless `stdin`. */
export function launch(command: string, args: string[], o: { cwd: string; env: Record<string, string>; infoFd?: boolean; stdin?: boolean }): LaunchedProcess {
  const l = launcherProcess();
  const id = nextId++;
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = o.stdin
    ? new Writable({
        write(chunk: Buffer, _enc, done) {
          l.send({ type: 'stdin', id, data: chunk.toString('base64') }, (err) => done(err ?? undefined));
        },
        final(done) {
          l.send({ type: 'stdin-end', id }, (err) => done(err ?? undefined));
        },
      })
    : null;
  const p = Object.assign(new EventEmitter(), {
    pid: undefined as number | undefined,
    stdin,
    stdout,
    stderr,
    stdio: [stdin, stdout, stderr, o.infoFd ? new PassThrough() : undefined] as LaunchedProcess['stdio'],
  });
  live.set(id, p);
  holdChannel(true);
  l.send({ type: 'spawn', id, command, args, cwd: o.cwd, env: o.env, infoFd: !!o.infoFd, stdin: !!o.stdin });
  return p;
}
