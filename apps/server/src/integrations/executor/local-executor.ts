import { spawn } from 'node:child_process';
import readline from 'node:readline';

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  onLine: (line: string, stream: 'stdout' | 'stderr') => void;
  signal: AbortSignal;
  /** How long a process group gets between SIGTERM and SIGKILL. */
  killGraceMs?: number;
}

export class AbortedError extends Error {
  constructor() { super('Stopped by user'); }
}

/**
 * Runs a command as the leader of its own process group, streaming its output by line;
 * an abort ends the whole group (the step's every child), not only bash.
 */
export function runProcess(command: string, args: string[], o: RunOptions): Promise<number> {
  return new Promise((resolve, reject) => {
    if (o.signal.aborted) return reject(new AbortedError());
    const child = spawn(command, args, { cwd: o.cwd, env: o.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, sig);
      } catch { /* already gone */ }
    };
    const onAbort = () => {
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), o.killGraceMs ?? 5000);
    };
    o.signal.addEventListener('abort', onAbort, { once: true });
    const pending: Promise<void>[] = [];
    for (const [stream, name] of [[child.stdout!, 'stdout'], [child.stderr!, 'stderr']] as const) {
      const rl = readline.createInterface({ input: stream, crlfDelay: Infinity });
      rl.on('line', (line) => o.onLine(line, name));
      pending.push(new Promise((r) => rl.once('close', () => r())));
    }
    child.once('error', (err) => {
      o.signal.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.once('close', async (code, sig) => {
      await Promise.all(pending);
      o.signal.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      killGroup('SIGKILL'); // background children the script left behind
      if (o.signal.aborted) return reject(new AbortedError());
      resolve(code ?? (sig ? 128 : 1));
    });
  });
}
