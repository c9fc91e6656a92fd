/**
 * Cold start: time from spawning `npm start` (builds the web app, then starts API + workers on a
 * fresh PGlite data dir) to the first 200 answer to GET /. Also the server alone
 * (`npm run start -w @gantry/server`, web already built), which is what a restart costs.
 *   npx tsx bench/cold-start.ts   (BENCH_RUNS: runs of the server-only start, default 3)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { freePort } from '@gantry/test-support';
import { fmt, isMain, repoRoot, table } from './src/load.js';

export interface ColdStartRun {
  command: string;
  ms: number;
  status: number;
}

/** Spawns the command in its own process group, polls GET / every 25 ms, then stops the whole group. */
export async function coldStart(args: string[], timeoutMs = 240_000): Promise<ColdStartRun> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-cold-'));
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
  try {
    for (;;) {
      if (exited !== null) throw new Error(`npm ${args.join(' ')} exited (${exited}) before answering:\n${output.slice(-3000)}`);
      if (performance.now() - t0 > timeoutMs) throw new Error(`no answer on :${port} within ${timeoutMs} ms:\n${output.slice(-3000)}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) });
        await res.arrayBuffer();
        if (res.status === 200) return { command: `npm ${args.join(' ')}`, ms: performance.now() - t0, status: res.status };
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 25));
    }
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
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface ColdStartResult {
  npmStart: ColdStartRun;
  serverOnly: ColdStartRun[];
}

export async function benchColdStart(runs = Number(process.env.BENCH_RUNS ?? 3)): Promise<ColdStartResult> {
  const npmStart = await coldStart(['start']);
  const serverOnly: ColdStartRun[] = [];
  for (let i = 0; i < runs; i++) serverOnly.push(await coldStart(['run', 'start', '-w', '@gantry/server']));
  return { npmStart, serverOnly };
}

export function printColdStart(r: ColdStartResult) {
  const sorted = r.serverOnly.map((x) => x.ms).sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  table([
    {
      start: 'npm start (web build + server, fresh data dir)',
      runs: 1,
      'median s': fmt(r.npmStart.ms / 1000, 2),
      'min s': fmt(r.npmStart.ms / 1000, 2),
      'max s': fmt(r.npmStart.ms / 1000, 2),
    },
    {
      start: 'npm run start -w @gantry/server (fresh data dir)',
      runs: sorted.length,
      'median s': fmt(median / 1000, 2),
      'min s': fmt(sorted[0]! / 1000, 2),
      'max s': fmt(sorted[sorted.length - 1]! / 1000, 2),
    },
  ]);
}

if (isMain(import.meta.url)) {
  benchColdStart().then(printColdStart, (err) => {
    console.error(err);
    process.exit(1);
  });
}
