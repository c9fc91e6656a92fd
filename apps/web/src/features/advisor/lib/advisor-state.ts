import type { AdvisorQuery } from '@gantry/contracts';

/** The navigation state /tools/advisor accepts (spec §2.1): awsAccount with awsAccountId and awsRegion, tagKey, tagValue. */
export type AdvisorNavigationState = { awsAccount: { awsAccountId: string; awsRegion: string }; tagKey?: string; tagValue?: string };

/** The state an environment opens the advisor with: its account and region, and its tag (only its resources). */
export const advisorNavigationState = (q: AdvisorQuery): AdvisorNavigationState => ({
  awsAccount: { awsAccountId: q.awsAccountId, awsRegion: q.awsRegion },
  tagKey: q.tagKey,
  tagValue: q.tagValue,
});

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** What the advisor page starts with from a navigation state of any shape (a stale history entry, a hand-made link): only a full account + region counts. */
export function queryFromState(state: unknown): AdvisorQuery | null {
  if (!state || typeof state !== 'object') return null;
  const s = state as Record<string, unknown>;
  const account = (s.awsAccount && typeof s.awsAccount === 'object' ? s.awsAccount : {}) as Record<string, unknown>;
  const awsAccountId = text(account.awsAccountId);
  const awsRegion = text(account.awsRegion);
  if (!awsAccountId || !awsRegion) return null;
  const tagKey = text(s.tagKey);
  const tagValue = text(s.tagValue);
  return tagKey && tagValue ? { awsAccountId, awsRegion, tagKey, tagValue } : { awsAccountId, awsRegion };
}

/** How old a result is, in words ('just now', '5 minutes ago', '2 hours ago', '3 days ago'). */
export function ageText(seconds: number): string {
  if (seconds < 60) return 'just now';
  const [n, unit] =
    seconds < 3600 ? [Math.floor(seconds / 60), 'minute'] : seconds < 86400 ? [Math.floor(seconds / 3600), 'hour'] : [Math.floor(seconds / 86400), 'day'];
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}
