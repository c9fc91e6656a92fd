import type { CostData } from '@gantry/contracts';

/** Whole dollars (spec §9): $1,234. */
export const dollars = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`;

/** 'YYYY-MM' as 'Jan 2026'. */
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number);
  if (!y || !m) return month;
  return `${new Date(Date.UTC(y, m - 1, 1)).toLocaleString('en-US', { month: 'short', timeZone: 'UTC' })} ${y}`;
}

/** Spec §9: top cost lists show 3 AWS accounts. */
export const TOP_ACCOUNTS = 3;
export const topAccounts = (d: CostData) => [...d.byAccount].sort((a, b) => b.amount - a.amount).slice(0, TOP_ACCOUNTS);

/** Each row's share of the largest (for bars), 0 when everything is 0. */
export function barShares<T extends { amount: number }>(rows: T[]): (T & { share: number })[] {
  const max = Math.max(0, ...rows.map((r) => r.amount));
  return rows.map((r) => ({ ...r, share: max > 0 ? (r.amount / max) * 100 : 0 }));
}

/** Month over month: the current month against the last, in whole percent; null without a last month. */
export function monthChange(d: Pick<CostData, 'costForTheLastMonth' | 'costForTheCurrentMonth'>): number | null {
  if (d.costForTheLastMonth <= 0) return null;
  return Math.round(((d.costForTheCurrentMonth - d.costForTheLastMonth) / d.costForTheLastMonth) * 100);
}
