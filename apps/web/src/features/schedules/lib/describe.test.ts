import { describe, expect, it } from 'vitest';
import { scheduleToCron } from '@gantry/contracts';
import { describeDays, describeSchedule } from './describe';

describe('schedule descriptions', () => {
  it('names runs of days, every day, and lists of days', () => {
    expect(describeDays(['MON', 'TUE', 'WED', 'THU', 'FRI'])).toBe('Mon–Fri');
    expect(describeDays(['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'])).toBe('Every day');
    expect(describeDays(['SAT', 'SUN'])).toBe('Sat, Sun');
    expect(describeDays(['MON', 'WED'])).toBe('Mon, Wed');
  });

  it('reads the UTC cron back in the browser zone, and shows a foreign cron as it is', () => {
    const cron = scheduleToCron({ days: ['MON', 'TUE', 'WED', 'THU', 'FRI'], wakeHour: 8, sleepHour: 18 }, -120);
    expect(describeSchedule(cron, -120)).toBe('Mon–Fri · wake 08:00 · sleep 18:00');
    expect(describeSchedule({ startExpression: 'cron(0/5 * * * ? *)', stopExpression: 'x' }, 0)).toBe('cron(0/5 * * * ? *) / x');
  });
});
