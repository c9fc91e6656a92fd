import { describe, expect, it } from 'vitest';
import { scheduleToCron, cronToSchedule, shiftToUtc, SavingScheduleFields, DEFAULT_SAVING_SCHEDULE, SCHEDULE_HOURS } from './index.js';

describe('saving schedule → cron in UTC (spec §2)', () => {
  const weekdays = DEFAULT_SAVING_SCHEDULE.days;
  it('UTC keeps the hours', () => {
    expect(scheduleToCron({ days: weekdays, wakeHour: 8, sleepHour: 18 }, 0)).toEqual({
      startExpression: 'cron(0 8 ? * MON,TUE,WED,THU,FRI *)',
      stopExpression: 'cron(0 18 ? * MON,TUE,WED,THU,FRI *)',
    });
  });
  it('east of UTC moves earlier, rolling the day back over midnight', () => {
    // UTC+2: getTimezoneOffset() = -120
    expect(scheduleToCron({ days: weekdays, wakeHour: 1, sleepHour: 18 }, -120)).toEqual({
      startExpression: 'cron(0 23 ? * MON,TUE,WED,THU,SUN *)',
      stopExpression: 'cron(0 16 ? * MON,TUE,WED,THU,FRI *)',
    });
  });
  it('west of UTC moves later, rolling the day forward; half-hour zones keep their minutes', () => {
    // UTC-5: offset 300
    expect(scheduleToCron({ days: ['FRI', 'SUN'], wakeHour: 8, sleepHour: 21 }, 300)).toEqual({
      startExpression: 'cron(0 13 ? * FRI,SUN *)',
      stopExpression: 'cron(0 2 ? * MON,SAT *)',
    });
    // UTC+5:30 (India): offset -330
    expect(shiftToUtc('MON', 8, -330)).toEqual({ day: 'MON', hour: 2, minute: 30 });
    expect(shiftToUtc('MON', 2, -330)).toEqual({ day: 'SUN', hour: 20, minute: 30 });
  });
  it('reads back into the browser zone', () => {
    const cron = scheduleToCron({ days: ['MON', 'SUN'], wakeHour: 1, sleepHour: 22 }, -120);
    expect(cronToSchedule(cron.startExpression, cron.stopExpression, -120)).toEqual({ days: ['MON', 'SUN'], wakeHour: 1, sleepHour: 22 });
    expect(cronToSchedule('rate(5 minutes)', 'x', 0)).toBeNull();
  });
  it('form rules and constants', () => {
    expect(SCHEDULE_HOURS).toHaveLength(24);
    expect(SCHEDULE_HOURS[0]).toBe('00:00');
    expect(SCHEDULE_HOURS[23]).toBe('23:00');
    expect(DEFAULT_SAVING_SCHEDULE).toEqual({ wakeHour: 8, sleepHour: 18, days: ['MON', 'TUE', 'WED', 'THU', 'FRI'] });
    const r = SavingScheduleFields.safeParse({ name: 'office', days: [], wakeHour: 8, sleepHour: 18, timezone: 'UTC' });
    expect(r.error!.issues[0]!.message).toBe('Please select at least one day and time range');
    expect(SavingScheduleFields.safeParse({ name: 'office', days: ['MON'], wakeHour: 8, sleepHour: 18, timezone: 'UTC' }).success).toBe(true);
  });
});
