/**
 * What the build sandbox costs a step: `bash -c 'echo hi'` started the way a build step is, on the
 * host, in the bubblewrap box (namespaces, mounts, setpriv) on the host's network, in the box with a
 * network of its own (GANTRY_BOX_NETWORK=box: pasta and the metadata routes) started for it, and in the box taking
 * a network a worker made ready beforehand (its pool, box-network-pool.ts: the untimed wait for one to be ready
 * stands for the time between a worker's runs), alternated run by run.
 *   npx tsx bench/sandbox.ts   (BENCH_RUNS, default 40)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSandbox } from '../apps/server/src/integrations/executor/sandbox.js';
import { runProcess } from '../apps/server/src/integrations/executor/local-executor.js';
import { fmt, isMain, table } from './src/load.js';

export async function benchSandbox(runs = Number(process.env.BENCH_RUNS ?? 40)) {
  const sandbox = createSandbox({ mode: 'bwrap', network: 'host' });
  const ownNet = createSandbox({ mode: 'bwrap', network: 'box' });
  const pooled = createSandbox({ mode: 'bwrap', network: 'box', networkPool: true });
  for (const s of [sandbox, ownNet, pooled]) if (s.unavailable) throw new Error(s.unavailable);
  const networkReady = async () => {
    pooled.warmNetwork();
    while (pooled.readyNetworks() === 0) await new Promise((r) => setTimeout(r, 10));
  };
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-bench-sandbox-'));
  sandbox.handOver(workspace);
  const once = async (boxed: false | typeof sandbox) => {
    const t0 = performance.now();
    await runProcess('bash', ['-c', 'echo hi'], {
      cwd: workspace,
      env: { PATH: '/usr/bin:/bin' },
      signal: new AbortController().signal,
      onLine: () => undefined,
      ...(boxed ? { box: { sandbox: boxed, run: { mounts: [{ path: workspace, writable: true }] } } } : {}),
    });
    return performance.now() - t0;
  };
  const host: number[] = [];
  const box: number[] = [];
  const net: number[] = [];
  const ready: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      host.push(await once(false));
      box.push(await once(sandbox));
      net.push(await once(ownNet));
      await networkReady();
      ready.push(await once(pooled));
    }
  } finally {
    pooled.close();
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  const stats = (a: number[]) => {
    const s = [...a].sort((x, y) => x - y);
    return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s.at(-1)! };
  };
  return {
    host: stats(host),
    box: stats(box),
    net: stats(net),
    netAdded: stats(net.map((n, i) => n - box[i]!)),
    ready: stats(ready),
    readyAdded: stats(ready.map((n, i) => n - box[i]!)),
  };
}

export function printSandbox(r: Awaited<ReturnType<typeof benchSandbox>>) {
  const ms = (x: { median: number; min: number; max: number }) => `${fmt(x.median, 1)} ms (${fmt(x.min, 1)}–${fmt(x.max, 1)})`;
  table([
    { process: "bash -c 'echo hi' on the host", 'median (min–max)': ms(r.host) },
    { process: "the same in the sandbox, on the host's network", 'median (min–max)': ms(r.box) },
    { process: 'added per step process', 'median (min–max)': `${fmt(r.box.median - r.host.median, 1)} ms` },
    { process: 'the same in the sandbox with a network of its own', 'median (min–max)': ms(r.net) },
    { process: 'added by its network (each run minus the one on the host network before it)', 'median (min–max)': ms(r.netAdded) },
    { process: "the same in a network made ready beforehand (a worker's pool)", 'median (min–max)': ms(r.ready) },
    { process: 'added by that network (each run minus the one on the host network)', 'median (min–max)': ms(r.readyAdded) },
  ]);
}

if (isMain(import.meta.url)) printSandbox(await benchSandbox());
