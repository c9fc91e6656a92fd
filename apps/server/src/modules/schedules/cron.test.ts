import { describe, it, expect } from 'vitest';
import { scheduleToCron } from '@gantry/contracts';
import { isScheduleExpression, lastFireAtOrBefore } from './cron.js';

const at = (iso: string) => new Date(iso);

describe('schedule expressions', () => {
  it('reads what the schedule form writes, and refuses anything else', () => {
    const { startExpression, stopExpression } = scheduleToCron({ days: ['MON', 'TUE', 'WED', 'THU', 'FRI'], wakeHour: 8, sleepHour: 18 }, -60);
    expect(isScheduleExpression(startExpression)).toBe(true);
    expect(isScheduleExpression(stopExpression)).toBe(true);
    expect(isScheduleExpression('cron(0 8 ? * MON-FRI *)')).toBe(true);
    expect(isScheduleExpression('cron(0 24 ? * MON *)')).toBe(false);
    expect(isScheduleExpression('cron(0 8 ? * FUNDAY *)')).toBe(false);
    expect(isScheduleExpression('at noon')).toBe(false);
  });

  it('finds the newest fire time at or before now, on the listed UTC days only', () => {
    // 2030-01-07 is a Monday
    expect(lastFireAtOrBefore('cron(0 18 ? * MON,FRI *)', at('2030-01-07T18:00:00Z'))).toEqual(at('2030-01-07T18:00:00Z'));
    expect(lastFireAtOrBefore('cron(0 18 ? * MON,FRI *)', at('2030-01-07T17:59:59Z'))).toEqual(at('2030-01-04T18:00:00Z'));
    expect(lastFireAtOrBefore('cron(30 7 ? * * *)', at('2030-01-07T07:29:00Z'))).toEqual(at('2030-01-06T07:30:00Z'));
    expect(lastFireAtOrBefore('cron(0 8 ? * MON-WED *)', at('2030-01-12T12:00:00Z'))).toEqual(at('2030-01-09T08:00:00Z'));
  });

  it('a wake hour shifted past midnight fires on the next UTC day (Berlin 00:00 Tuesday is Monday 23:00 UTC)', () => {
    const { startExpression } = scheduleToCron({ days: ['TUE'], wakeHour: 0, sleepHour: 8 }, -60);
    expect(startExpression).toBe('cron(0 23 ? * MON *)');
    expect(lastFireAtOrBefore(startExpression, at('2030-01-08T00:30:00Z'))).toEqual(at('2030-01-07T23:00:00Z'));
  });
});
