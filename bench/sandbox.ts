/**
 * What the build sandbox costs a step: `bash -c 'echo hi'` started the way a build step is, on the
 * host and in the bubblewrap box (namespaces, mounts, setpriv), alternated run by run.
 *   npx tsx bench/sandbox.ts   (BENCH_RUNS, default 40)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSandbox } from '../apps/server/src/integrations/executor/sandbox.js';
import { runProcess } from '../apps/server/src/integrations/executor/local-executor.js';
import { fmt, isMain, table } from './src/load.js';

export async function benchSandbox(runs = Number(process.env.BENCH_RUNS ?? 40)) {
  const sandbox = createSandbox({ mode: 'bwrap' });
  if (sandbox.unavailable) throw new Error(sandbox.unavailable);
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-bench-sandbox-'));
  sandbox.handOver(workspace);
  const once = async (boxed: boolean) => {
    const t0 = performance.now();
    await runProcess('bash', ['-c', 'echo hi'], {
      cwd: workspace,
      env: { PATH: '/usr/bin:/bin' },
      signal: new AbortController().signal,
      onLine: () => undefined,
      ...(boxed ? { box: { sandbox, run: { mounts: [{ path: workspace, writable: true }] } } } : {}),
    });
    return performance.now() - t0;
  };
  const host: number[] = [];
  const box: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      host.push(await once(false));
      box.push(await once(true));
    }
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  const stats = (a: number[]) => {
    const s = [...a].sort((x, y) => x - y);
    return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s.at(-1)! };
  };
  return { host: stats(host), box: stats(box) };
}

export function printSandbox(r: Awaited<ReturnType<typeof benchSandbox>>) {
  const ms = (x: { median: number; min: number; max: number }) => `${fmt(x.median, 1)} ms (${fmt(x.min, 1)}–${fmt(x.max, 1)})`;
  table([
    { process: "bash -c 'echo hi' on the host", 'median (min–max)': ms(r.host) },
    { process: 'the same in the sandbox', 'median (min–max)': ms(r.box) },
    { process: 'added per step process', 'median (min–max)': `${fmt(r.box.median - r.host.median, 1)} ms` },
  ]);
}

if (isMain(import.meta.url)) printSandbox(await benchSandbox());
