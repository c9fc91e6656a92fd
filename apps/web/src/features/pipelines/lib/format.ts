import { formatDuration } from '@gantry/contracts';

/** Milliseconds between two dates (to now while still running), null without a start. */
export function elapsedMs(start: string | null | undefined, stop: string | null | undefined, now = Date.now()): number | null {
  if (!start) return null;
  const s = Date.parse(start);
  const e = stop ? Date.parse(stop) : now;
  if (Number.isNaN(s) || Number.isNaN(e)) return null;
  return Math.max(0, e - s);
}

/** Minutes and seconds (build page): '4m 07s', '12s', '1h 02m 03s'. */
export function formatMinSec(ms: number | null): string {
  if (ms === null) return '—';
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (h) return `${h}h ${pad(m)}m ${pad(s)}s`;
  if (m) return `${m}m ${pad(s)}s`;
  return `${s}s`;
}

/** HH:mm:ss (lists). */
export const formatHms = (ms: number | null) => (ms === null ? '—' : formatDuration(ms));

/** First 10 characters of a build id: the build number shown on the build page (spec §9). */
export const buildNumberText = (id: string) => id.slice(0, 10);

export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '—';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(v >= 100 ? 0 : 1)} ${units[i]}`;
}
