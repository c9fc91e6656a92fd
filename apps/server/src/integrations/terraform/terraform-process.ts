import { AbortedError, spawnProcess, readLines, type Boxed } from '../executor/local-executor.js';
import type { LaunchedProcess } from '../executor/launcher.js';
import type { OpenedBox } from '../executor/opened-box.js';

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
  /** The sandbox and its mounts; terraform is the box's pid 1, so the SIGINT of a cancel reaches it. */
  box?: Boxed;
  /** A box of the same mounts opened ahead (it runs terraform instead of a new one, unless it ended). */
  opened?: OpenedBox;
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
    // in the sandbox, terraform is the box's pid 1 with a host pid of its own (bwrap's info fd)
    let terraformPid: number | undefined;
    const started = (pid: number) => {
      terraformPid = pid;
      o.onProcess?.(pid);
      if (o.signal?.aborted) interrupt();
    };
    let child: LaunchedProcess;
    try {
      child =
        o.opened?.exec(bin, args, o.env, started) ??
        spawnProcess(bin, args, {
          cwd: o.cwd,
          env: o.env,
          ...(o.box ? { box: { ...o.box, run: { ...o.box.run, asPid1: true } } } : {}),
          onBoxPid: started,
          launcher: true,
        });
    } catch (err) {
      return reject(err);
    }
    if (!o.box) child.once('spawn', () => started(child.pid!));
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    // one SIGINT only: a second one makes terraform exit at once and lose its state
    let interrupted = false;
    const interrupt = () => {
      if (interrupted || !terraformPid) return;
      interrupted = true;
      try {
        process.kill(terraformPid, 'SIGINT');
      } catch {
        /* already gone */
      }
    };
    const onAbort = () => {
      interrupt(); // before the box has told terraform's pid, the SIGINT follows as soon as it does
      killTimer = setTimeout(killGroup, o.killGraceMs);
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const pending: Promise<void>[] = [];
    const chunks: Buffer[] = [];
    if (o.captureStdout) {
      child.stdout!.on('data', (c: Buffer) => chunks.push(c));
      pending.push(new Promise((r) => child.stdout!.once('close', () => r())));
    }
    pending.push(readLines(child, o.onLine, o.captureStdout ? ['stderr'] : ['stdout', 'stderr']));
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
    child.once('close', async (code: number | null, sig: NodeJS.Signals | null) => {
      await Promise.all(pending);
      o.signal?.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      killGroup();
      if (o.signal?.aborted) return reject(new AbortedError());
      resolve({ code: code ?? (sig ? 128 : 1), stdout: Buffer.concat(chunks).toString('utf8') });
    });
  });
}
