import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { AbortedError } from '../executor/local-executor.js';

export interface TerraformProcessOptions {
  cwd: string;
  env: Record<string, string>;
  signal?: AbortSignal;
  /** Each line of stderr, and of stdout unless `captureStdout`. */
  onLine: (line: string, stream: 'stdout' | 'stderr') => void;
  /** Collect stdout whole instead of streaming it (machine-readable JSON that may hold secrets). */
  captureStdout?: boolean;
  /** Time between the SIGINT to terraform and the SIGKILL of its process group. */
  killGraceMs: number;
  /** The pid of terraform (also its process group id) once spawned, and null once it exited. */
  onProcess?: (pid: number | null) => void;
}

export interface TerraformProcessResult {
  code: number;
  stdout: string;
}

/**
 * The executor's `runProcess` (process group, line streaming, abort) with Terraform's stop
 * protocol: on abort only the terraform process gets SIGINT — it then stops its providers and
 * provisioners itself, writes the state and releases the state lock. Sending the signal to
 * the whole group (as `runProcess` does) would also hit the provider plugins mid-call. The
 * group is SIGKILLed only if terraform has not ended within `killGraceMs`, and always swept
 * once terraform has exited (children a provisioner left behind). A second SIGINT is never
 * sent: terraform treats it as "exit now, lose state".
 */
export function runTerraformProcess(bin: string, args: string[], o: TerraformProcessOptions): Promise<TerraformProcessResult> {
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) return reject(new AbortedError());
    const child = spawn(bin, args, { cwd: o.cwd, env: o.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid) o.onProcess?.(child.pid);
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch { /* already gone */ }
    };
    const onAbort = () => {
      try {
        child.kill('SIGINT');
      } catch { /* already gone */ }
      killTimer = setTimeout(killGroup, o.killGraceMs);
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const pending: Promise<void>[] = [];
    const chunks: Buffer[] = [];
    if (o.captureStdout) {
      child.stdout!.on('data', (c: Buffer) => chunks.push(c));
      pending.push(new Promise((r) => child.stdout!.once('close', () => r())));
    }
    const streams = o.captureStdout ? ([[child.stderr!, 'stderr']] as const) : ([[child.stdout!, 'stdout'], [child.stderr!, 'stderr']] as const);
    for (const [stream, name] of streams) {
      const rl = readline.createInterface({ input: stream, crlfDelay: Infinity });
      rl.on('line', (line) => o.onLine(line, name));
      pending.push(new Promise((r) => rl.once('close', () => r())));
    }
    child.once('error', (err) => {
      o.signal?.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      reject(err);
    });
    // sweep the group as soon as terraform itself exits: a leftover child holding our pipes
    // open would otherwise delay 'close'
    child.once('exit', () => {
      if (killTimer) clearTimeout(killTimer);
      killGroup();
      o.onProcess?.(null);
    });
    child.once('close', async (code, sig) => {
      await Promise.all(pending);
      o.signal?.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      killGroup();
      if (o.signal?.aborted) return reject(new AbortedError());
      resolve({ code: code ?? (sig ? 128 : 1), stdout: Buffer.concat(chunks).toString('utf8') });
    });
  });
}
