import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface LoadResult {
  url: string;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/**
 * Drives a loopback URL with autocannon in a separate process (so the load generator and the
 * server under test don't share one event loop), for a bounded duration.
 */
export function load(url: string, o: { seconds?: number; connections?: number; headers?: Record<string, string> } = {}): Promise<LoadResult> {
  const target = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error(`bench targets loopback only, not ${target.hostname}`);
  const args = [
    path.join(repoRoot, 'node_modules/autocannon/autocannon.js'),
    '--json',
    '--connections',
    String(o.connections ?? 10),
    '--duration',
    String(o.seconds ?? 10),
    ...Object.entries(o.headers ?? {}).flatMap(([k, v]) => ['--headers', `${k}=${v}`]),
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      const r = JSON.parse(out);
      resolve({
        url,
        requestsPerSecond: r.requests.average,
        latencyP50Ms: r.latency.p50,
        latencyP99Ms: r.latency.p99,
        requests: r.requests.total,
        non2xx: r.non2xx,
        errors: r.errors,
      });
    });
  });
}

export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Prints rows as an aligned text table. */
export function table(rows: Array<Record<string, string | number>>) {
  if (!rows.length) return;
  const keys = Object.keys(rows[0]);
  const widths = keys.map((k) => Math.max(k.length, ...rows.map((r) => String(r[k]).length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(keys));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(keys.map((k) => String(r[k]))));
}

export const isMain = (metaUrl: string) => process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(metaUrl);

export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** Median and range of repeated measurements. */
export function spread(values: number[]): Spread {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return { median: s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2, min: s[0]!, max: s.at(-1)! };
}

/** "median (min–max)". */
export const fmtSpread = (s: Spread, digits = 0) => `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
