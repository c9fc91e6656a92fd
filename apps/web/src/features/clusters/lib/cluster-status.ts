import type { ClusterStatus, PodStatus } from '@gantry/contracts';

/** Spec §2/§4: failed pods show red when above 0, pending yellow when above 0; otherwise the calm colour. */
export type PodTone = 'failed' | 'pending' | 'ok';

/** The tone of a pod count as a whole: red if any pod failed, else yellow if any is pending (spec §4). */
export function podTone(p: Pick<PodStatus, 'failedPods' | 'pendingPods'>): PodTone {
  if (p.failedPods > 0) return 'failed';
  if (p.pendingPods > 0) return 'pending';
  return 'ok';
}

export const TONE_COLOR: Record<PodTone, string> = { failed: 'red', pending: 'yellow', ok: 'teal' };

/** The colour of one header figure: Failed Pods red above 0, Pending Pods yellow above 0, else neutral. */
export function podCountColor(kind: 'failed' | 'pending' | 'running', count: number): string | undefined {
  if (kind === 'failed' && count > 0) return 'red';
  if (kind === 'pending' && count > 0) return 'yellow';
  return undefined;
}

/** Spec §9: utilization percentages rounded to 2 decimals (a number, so 80 shows 80 and 12.345 shows 12.35). */
export const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

/** Clamped to 0..100 for a ring, whatever the cluster reports. */
export const ringValue = (n: number) => Math.min(100, Math.max(0, n));

/** Spec §2: a cluster is reachable when it has podStatus. */
export const isReachable = (status: ClusterStatus | null | undefined): status is ClusterStatus => Boolean(status?.podStatus);

/** The colour of a utilization ring: teal, yellow from 70 %, red from 90 %. */
export const utilizationColor = (n: number) => (n >= 90 ? 'red' : n >= 70 ? 'yellow' : 'teal');

/** Spec §8: cells without deployment data. */
export const NO_DEPLOYMENT_INFO = 'No deployment information available';

/** One slice of a dashboard pie: its share in % of the whole (0 when the whole is 0). */
export type PieSlice = { name: string; value: number; color: string };
export const pieShares = (slices: readonly PieSlice[]) => {
  const total = slices.reduce((n, s) => n + s.value, 0);
  return slices.map((s) => ({ ...s, percent: total ? round2((s.value / total) * 100) : 0 }));
};

/** Spec §2: a pie label is hidden at 0 and shows only the percentage at 10 or below; above, the name too. */
export function pieLabel(name: string, percent: number): string | null {
  if (percent <= 0) return null;
  if (percent <= 10) return `${percent}%`;
  return `${name} ${percent}%`;
}

/** The Deployments pie (spec §2: healthy vs failed share): available deployments are healthy, the others failed. */
export const deploymentSlices = (d: { total: number; available: number }): PieSlice[] => [
  { name: 'Healthy', value: d.available, color: 'teal' },
  { name: 'Failed', value: Math.max(0, d.total - d.available), color: 'red' },
];

/** The Pods pie (spec §2: ready, failed, pending share). */
export const podSlices = (p: PodStatus): PieSlice[] => [
  { name: 'Ready', value: p.runningPods, color: 'teal' },
  { name: 'Failed', value: p.failedPods, color: 'red' },
  { name: 'Pending', value: p.pendingPods, color: 'yellow' },
];
