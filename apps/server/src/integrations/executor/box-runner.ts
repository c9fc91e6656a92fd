import crypto from 'node:crypto';
import readline from 'node:readline';
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AbortedError, type RunOptions } from './local-executor.js';
import type { Sandbox, SandboxMount, SandboxRun } from './sandbox.js';
import { launch } from './launcher.js';

/**
 * One sandbox for all the shell steps of a build: bubblewrap starts once, with a small bash runner
 * as its first process, and each step is a script the runner is handed on its stdin. A step then
 * costs what its commands cost, not a new box (namespaces, mounts, setpriv) each time.
 *
 * What a step sees stays what its own box gave it:
 *  - the environment is exactly the one sent with the step, never the runner's: the runner exports none of its
 *    own variables, and the step's subshell exports the step's (as plain names; any other, a bash special like
 *    RANDOM or UID or a name bash cannot assign, goes through `env -i`, an exec more per step) then execs bash;
 *  - stdin is /dev/null; its output goes to the runner's stdout/stderr, read by line per step;
 *  - when the step's bash ends, every other process of the box is killed (`kill -KILL -1`: all but
 *    the runner and the box's init) and waited for, as the end of its own box did: nothing a step
 *    left running sees the next step's environment;
 *  - the runner then writes an end mark with the exit code on both streams (after every writer of the
 *    step is gone, so no line of the step can come after it, and none of the next before it).
 * A cancel ends the whole box (the build stops with it), as it ended the step's box.
 */
const RUNNER = String.raw`
shopt -s nullglob
# none of the runner's own variables reach a step (PATH, PWD, SHLVL, …: a step's subshell exports only the step's)
readarray -t own < <(compgen -e)
export -n -- "${'$'}{own[@]}"
unset own
others() {
  local p s
  for p in /proc/[0-9]*; do
    p=${'$'}{p#/proc/}
    [[ $p == 1 || $p == $$ ]] && continue
    { read -r s < /proc/$p/stat; } 2>/dev/null || continue
    s=${'$'}{s##*) }
    [[ ${'$'}{s:0:1} == Z ]] || return 0
  done
  return 1
}
while IFS= read -r -d '' mark && IFS= read -r -d '' cwd && IFS= read -r -d '' script && IFS= read -r -d '' plain && IFS= read -r -d '' n; do
  vars=()
  for ((i = 0; i < n; i++)); do IFS= read -r -d '' kv || exit 1; vars+=("$kv"); done
  if [[ $plain == 1 ]]; then
    # (cd sets OLDPWD, exported; what the runner holds is kept as arguments: a step's variable may be named script or vars)
    (cd -- "$cwd" && unset OLDPWD && set -- "$script" "${'$'}{vars[@]}" && unset vars && export -- "${'$'}{@:2}" && exec bash -- "$1") < /dev/null
  else
    (cd -- "$cwd" && exec env -i -- "${'$'}{vars[@]}" bash -- "$script") < /dev/null
  fi
  code=$?
  for ((i = 0; i < 1000; i++)); do others || break; kill -KILL -1 2> /dev/null; sleep 0.005; done
  printf '\036%s %d\n' "$mark" "$code"
  printf '\036%s %d\n' "$mark" "$code" >&2
done
`;

/**
 * Names a step's subshell can export as they are: an identifier that is none of bash's own special variables (read-only,
 * computed, or changing the subshell itself). A step with any other goes through `env -i`.
 */
const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const BASH_SPECIAL = new Set(
  'BASHOPTS BASHPID BASH_ARGV0 BASH_COMPAT BASH_ENV BASH_XTRACEFD CDPATH COLUMNS DIRSTACK EPOCHREALTIME EPOCHSECONDS EUID FUNCNAME GLOBIGNORE GROUPS HISTCMD HISTFILE HOSTNAME IFS LINENO LINES OLDPWD OPTARG OPTERR OPTIND PIPESTATUS POSIXLY_CORRECT PPID PS4 PWD RANDOM SECONDS SHELLOPTS SHLVL SRANDOM TIMEFORMAT UID _'.split(
    ' ',
  ),
);
const plainNames = (env: Record<string, string>) => Object.keys(env).every((k) => PLAIN_NAME.test(k) && !BASH_SPECIAL.has(k) && !k.startsWith('BASH'));

type Step = {
  mark: string;
  onLine: RunOptions['onLine'];
  streams: Map<'stdout' | 'stderr', { out: PassThrough; closed: Promise<void> }>;
  code: number | null;
  resolve: (code: number) => void;
  reject: (err: Error) => void;
};

export interface BoxRunner {
  /** Runs `bash <script>` in the box as its own step; answers its exit code. An abort ends the box (and rejects AbortedError). */
  run(script: string, o: Omit<RunOptions, 'killGraceMs' | 'box'>): Promise<number>;
  /** Ends the box (its runner and anything left in it). */
  close(): Promise<void>;
  /** Whether steps can still run in it (not closed, cancelled or ended). */
  readonly open: boolean;
}

export function startBoxRunner(sandbox: Sandbox, o: { mounts: SandboxMount[]; cwd: string; killGraceMs?: number; limits?: SandboxRun['limits'] }): BoxRunner {
  const wrapped = sandbox.wrap('bash', ['-c', RUNNER, 'gantry-step-runner'], { mounts: o.mounts, cwd: o.cwd, limits: o.limits });
  // spawned by the launcher: a fork of the server itself blocks its event loop for as long as its memory is large
  const child = launch(wrapped.command, wrapped.args, { cwd: '/', env: { PATH: '/usr/bin:/bin' }, infoFd: wrapped.infoFd, stdin: true });
  child.stdio[3]?.resume();
  let killWhenSpawned: NodeJS.Signals | undefined;
  child.once('spawn', () => killWhenSpawned && killBox(killWhenSpawned));
  child.stdin!.on('error', () => undefined);
  let current: Step | null = null;
  let ended: Error | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));

  const killBox = (sig: NodeJS.Signals) => {
    if (!child.pid) killWhenSpawned = sig;
    try {
      if (child.pid) process.kill(-child.pid, sig);
    } catch {
      /* already gone */
    }
  };

  function stepEnded(step: Step) {
    if (current !== step || [...step.streams.values()].some((s) => !s.out.writableEnded)) return;
    current = null;
    void Promise.all([...step.streams.values()].map((s) => s.closed)).then(() => step.resolve(step.code ?? 1));
  }

  /** Splits a stream of the runner at the current step's end mark (which may arrive cut in two chunks). */
  function demux(name: 'stdout' | 'stderr') {
    const decoder = new StringDecoder('utf8');
    let held = '';
    const take = (text: string) => {
      held += text;
      while (current && held) {
        const step = current;
        const s = step.streams.get(name)!;
        if (s.out.writableEnded) return; // this stream's part is over; the other stream's end mark is on its way
        const prefix = `\x1e${step.mark} `;
        const at = held.indexOf(prefix);
        if (at >= 0) {
          const nl = held.indexOf('\n', at);
          if (nl < 0) {
            if (at > 0) s.out.write(held.slice(0, at));
            held = held.slice(at);
            return;
          }
          if (at > 0) s.out.write(held.slice(0, at));
          step.code = Number(held.slice(at + prefix.length, nl));
          held = held.slice(nl + 1);
          s.out.end();
          stepEnded(step);
          continue;
        }
        // keep back what may be the start of the mark
        let keep = Math.min(held.length, prefix.length - 1);
        while (keep > 0 && !prefix.startsWith(held.slice(held.length - keep))) keep--;
        if (held.length > keep) s.out.write(held.slice(0, held.length - keep));
        held = held.slice(held.length - keep);
        return;
      }
    };
    child[name]!.on('data', (chunk: Buffer) => take(decoder.write(chunk)));
    child[name]!.once('close', () => {
      take(decoder.end());
      const step = current;
      const s = step?.streams.get(name);
      if (s && !s.out.writableEnded) {
        if (held) s.out.write(held);
        s.out.end();
      }
      held = '';
    });
  }
  demux('stdout');
  demux('stderr');

  void exited.then(() => {
    ended ??= new Error('The build sandbox ended unexpectedly');
    const step = current;
    current = null;
    if (step) void Promise.all([...step.streams.values()].map((s) => s.closed)).then(() => step.reject(ended!));
  });
  child.once('error', (err) => {
    ended ??= err;
  });

  function runOne(script: string, ro: Omit<RunOptions, 'killGraceMs' | 'box'>): Promise<number> {
    if (ro.signal.aborted) return Promise.reject(new AbortedError());
    if (ended) return Promise.reject(ended);
    return new Promise<number>((resolve, reject) => {
      let killTimer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        ended = new AbortedError();
        killBox('SIGTERM');
        killTimer = setTimeout(() => killBox('SIGKILL'), o.killGraceMs ?? 5000);
      };
      const done = () => {
        ro.signal.removeEventListener('abort', onAbort);
        if (killTimer) clearTimeout(killTimer);
      };
      const streams = new Map(
        (['stdout', 'stderr'] as const).map((name) => {
          const out = new PassThrough();
          const rl = readline.createInterface({ input: out, crlfDelay: Infinity });
          rl.on('line', (line) => ro.onLine(line, name));
          return [name, { out, closed: new Promise<void>((r) => rl.once('close', () => r())) }];
        }),
      );
      current = {
        mark: crypto.randomBytes(12).toString('hex'),
        onLine: ro.onLine,
        streams,
        code: null,
        resolve: (code) => {
          done();
          resolve(code);
        },
        reject: (err) => {
          done();
          reject(ro.signal.aborted ? new AbortedError() : err);
        },
      };
      ro.signal.addEventListener('abort', onAbort, { once: true });
      const env = Object.entries(ro.env).map(([k, v]) => `${k}=${v}`);
      const plain = plainNames(ro.env) ? '1' : '0';
      child.stdin!.write([current.mark, ro.cwd, script, plain, String(env.length), ...env].map((f) => `${f}\0`).join(''));
    });
  }

  return {
    get open() {
      return !ended;
    },
    // one step at a time: a build's steps run one after the other
    run(script, ro) {
      const next = queue.then(() => runOne(script, ro));
      queue = next.catch(() => undefined);
      return next;
    },
    async close() {
      ended ??= new Error('The build sandbox was closed');
      child.stdin!.end();
      const timer = setTimeout(() => killBox('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      killBox('SIGKILL');
    },
  };
}
