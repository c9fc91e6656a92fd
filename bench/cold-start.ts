/**
 * Start times: from spawning `npm start` to the first 200 answer to GET /, on a fresh PGlite data dir
 * and again on the data dir a previous start left (the two lines), each BENCH_RUNS times.
 *   npx tsx bench/cold-start.ts   (BENCH_RUNS, default 3)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { freePort } from '@gantry/test-support';
import { fmtSpread, isMain, repoRoot, spread, table } from './src/load.js';

export interface ColdStartRun {
  command: string;
  /** Until the first 200 on / (the SPA). */
  ms: number;
  /** Until /healthz answers 200: the API is ready (migrations, job queue and modules done). */
  apiMs: number;
  status: number;
}

/** Spawns the command in its own process group, polls GET / then /healthz every 25 ms, then stops the whole group. */
export async function coldStart(args: string[], o: { dataDir?: string; timeoutMs?: number } = {}): Promise<ColdStartRun> {
  const timeoutMs = o.timeoutMs ?? 240_000;
  const port = await freePort();
  const dataDir = o.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-cold-'));
  const t0 = performance.now();
  const child = spawn('npm', args, {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', GANTRY_DATA_DIR: dataDir, GANTRY_LOG_LEVEL: 'warn', DATABASE_URL: '', SMTP_URL: '' },
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? -1));
  const firstOk = async (p: string) => {
    for (;;) {
      if (exited !== null) throw new Error(`npm ${args.join(' ')} exited (${exited}) before answering:\n${output.slice(-3000)}`);
      if (performance.now() - t0 > timeoutMs) throw new Error(`no answer on :${port} within ${timeoutMs} ms:\n${output.slice(-3000)}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}${p}`, { signal: AbortSignal.timeout(2_000) });
        await res.arrayBuffer();
        if (res.status === 200) return { ms: performance.now() - t0, status: res.status };
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  try {
    const first = await firstOk('/');
    const api = await firstOk('/healthz');
    return { command: `npm ${args.join(' ')}`, ms: first.ms, apiMs: api.ms, status: first.status };
  } finally {
    if (exited === null && child.pid) {
      const gone = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, 10_000);
      await gone;
      clearTimeout(timer);
    }
    if (!o.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface ColdStartResult {
  /** npm start on a fresh data dir. */
  fresh: ColdStartRun[];
  /** npm start again on the data dir of an earlier start. */
  again: ColdStartRun[];
}

export async function benchColdStart(runs = Number(process.env.BENCH_RUNS ?? 3)): Promise<ColdStartResult> {
  const fresh: ColdStartRun[] = [];
  const again: ColdStartRun[] = [];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-cold-again-'));
  try {
    await coldStart(['start'], { dataDir }); // makes the data dir the later starts find
    for (let i = 0; i < runs; i++) {
      fresh.push(await coldStart(['start']));
      again.push(await coldStart(['start'], { dataDir }));
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return { fresh, again };
}

export function printColdStart(r: ColdStartResult) {
  table([
    {
      start: 'npm start, fresh data dir → first 200 on /',
      runs: r.fresh.length,
      'seconds median (min–max)': fmtSpread(spread(r.fresh.map((x) => x.ms / 1000)), 2),
    },
    {
      start: 'npm start again, existing data dir → first 200 on /',
      runs: r.again.length,
      'seconds median (min–max)': fmtSpread(spread(r.again.map((x) => x.ms / 1000)), 2),
    },
    {
      start: 'npm start, fresh data dir → API ready (/healthz 200)',
      runs: r.fresh.length,
      'seconds median (min–max)': fmtSpread(spread(r.fresh.map((x) => x.apiMs / 1000)), 2),
    },
    {
      start: 'npm start again, existing data dir → API ready (/healthz 200)',
      runs: r.again.length,
      'seconds median (min–max)': fmtSpread(spread(r.again.map((x) => x.apiMs / 1000)), 2),
    },
  ]);
}

if (isMain(import.meta.url)) {
  benchColdStart().then(printColdStart, (err) => {
    console.error(err);
    process.exit(1);
  });
}
