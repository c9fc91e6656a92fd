import { SCHEDULE_HOURS, WEEKDAYS, cronToSchedule, type Schedule, type Weekday } from '@gantry/contracts';

const SHORT: Record<Weekday, string> = { MON: 'Mon', TUE: 'Tue', WED: 'Wed', THU: 'Thu', FRI: 'Fri', SAT: 'Sat', SUN: 'Sun' };

/** Days as a person reads them: 'Mon–Fri', 'Every day', 'Sat, Sun'. */
export function describeDays(days: Weekday[]): string {
  if (days.length === 7) return 'Every day';
  const idx = days.map((d) => WEEKDAYS.indexOf(d)).sort((a, b) => a - b);
  const consecutive = idx.length > 2 && idx.every((d, i) => i === 0 || d === idx[i - 1]! + 1);
  if (consecutive) return `${SHORT[WEEKDAYS[idx[0]!]!]}–${SHORT[WEEKDAYS[idx[idx.length - 1]!]!]}`;
  return idx.map((i) => SHORT[WEEKDAYS[i]!]).join(', ');
}

/** A schedule's hours in the browser's zone ('Mon–Fri · wake 08:00 · sleep 18:00'), or its raw cron when it was not written by a form. */
export function describeSchedule(s: Pick<Schedule, 'startExpression' | 'stopExpression'>, offsetMinutes: number): string {
  const t = cronToSchedule(s.startExpression, s.stopExpression, offsetMinutes);
  if (!t) return `${s.startExpression} / ${s.stopExpression}`;
  return `${describeDays(t.days)} · wake ${SCHEDULE_HOURS[t.wakeHour]} · sleep ${SCHEDULE_HOURS[t.sleepHour]}`;
}
