import type { Report } from '@gantry/contracts';

type Granularity = Report['granularity'];
const DAY_MS = 86_400_000;

/**
 * When reports are mailed (UTC): WEEKLY on Mondays at 00:00 for the week before, MONTHLY on the
 * 1st at 00:00 for the month before. The newest send time at or before `t`.
 */
export function lastSendAt(granularity: Granularity, t: Date): Date {
  if (granularity === 'MONTHLY') return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
  const midnight = Math.floor(t.getTime() / DAY_MS) * DAY_MS;
  const sinceMonday = (new Date(midnight).getUTCDay() + 6) % 7;
  return new Date(midnight - sinceMonday * DAY_MS);
}

/** The first send time after `t`. */
export function nextSendAt(granularity: Granularity, t: Date): Date {
  const last = lastSendAt(granularity, t);
  return granularity === 'MONTHLY' ? new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() + 1, 1)) : new Date(last.getTime() + 7 * DAY_MS);
}

/** The period a mailing at `sendAt` covers: [the send time before, sendAt). */
export function periodBefore(granularity: Granularity, sendAt: Date): { start: Date; end: Date } {
  return { start: lastSendAt(granularity, new Date(sendAt.getTime() - 1)), end: sendAt };
}
