import { WEEKDAYS, type Weekday } from '@gantry/contracts';

/** The schedule expressions Gantry writes: `cron(m h ? * DAYS *)` in UTC, DAYS a list (MON,FRI), a range (MON-FRI) or `*`. */
const CRON = /^cron\((\d{1,2}) (\d{1,2}) \? \* ([A-Z,*-]+) \*\)$/;
const JS_DAY: Weekday[] = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

function days(field: string): Set<Weekday> | null {
  if (field === '*') return new Set(WEEKDAYS);
  const out = new Set<Weekday>();
  for (const part of field.split(',')) {
    const [a, b] = part.split('-') as [Weekday, Weekday | undefined];
    const from = WEEKDAYS.indexOf(a);
    const to = b === undefined ? from : WEEKDAYS.indexOf(b);
    if (from < 0 || to < 0 || to < from) return null;
    for (let i = from; i <= to; i++) out.add(WEEKDAYS[i]!);
  }
  return out;
}

export const isScheduleExpression = (expr: string) => {
  const m = CRON.exec(expr);
  return !!m && Number(m[1]) < 60 && Number(m[2]) < 24 && days(m[3]!) !== null;
};

/** The newest time at or before `now` the expression fires (within the last week), or null. */
export function lastFireAtOrBefore(expr: string, now: Date): Date | null {
  const m = CRON.exec(expr);
  const on = m && days(m[3]!);
  if (!m || !on) return null;
  for (let back = 0; back <= 7; back++) {
    const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - back, Number(m[2]), Number(m[1])));
    if (at <= now && on.has(JS_DAY[at.getUTCDay()]!)) return at;
  }
  return null;
}
