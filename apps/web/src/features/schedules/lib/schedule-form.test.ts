import { describe, expect, it } from 'vitest';
import { COST_TAG_KEY, savingScheduleMessages, scheduleMessages, type CloudResource } from '@gantry/contracts';
import { emptyScheduleForm, scheduleEstimate, scheduleFormFrom, scheduleFormSchema, toScheduleBody, type ScheduleFormValues } from './schedule-form';

const CET = -60; // getTimezoneOffset() in UTC+1
const form = (over: Partial<ScheduleFormValues> = {}): ScheduleFormValues => ({
  ...emptyScheduleForm(),
  name: 'Nights off',
  timezone: 'Europe/Berlin',
  awsAccountId: '123456789012',
  awsRegion: 'eu-central-1',
  resources: [{ type: 'ec2', id: 'i-1' }],
  ...over,
});
const issues = (v: ScheduleFormValues, creating = true) => {
  const r = scheduleFormSchema(creating).safeParse(toScheduleBody(v, CET));
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join('.'), i.message]));
};
const resource = (over: Partial<CloudResource>): CloudResource => ({
  type: 'ec2',
  id: 'i-1',
  name: 'web',
  arn: null,
  state: 'running',
  running: true,
  instanceType: 't3.micro',
  price: 0.1,
  storagePrice: null,
  ebsData: [],
  tags: [],
  asgGroupCapacity: null,
  ...over,
});

describe('schedule form', () => {
  it('sends cron in UTC from the browser offset, the chosen resources and the cost tag key', () => {
    const body = toScheduleBody(form(), CET);
    expect(body).toMatchObject({
      startExpression: 'cron(0 7 ? * MON,TUE,WED,THU,FRI *)',
      stopExpression: 'cron(0 17 ? * MON,TUE,WED,THU,FRI *)',
      selectBy: 'RESOURCES',
      resourcesTagKey: COST_TAG_KEY,
      resources: [{ type: 'ec2', id: 'i-1' }],
    });
  });

  it('rolls the day over at midnight (wake 00:00 Monday in UTC+1 is Sunday 23:00 UTC)', () => {
    expect(toScheduleBody(form({ days: ['MON'], wakeHour: 0, sleepHour: 6 }), CET).startExpression).toBe('cron(0 23 ? * SUN *)');
  });

  it('sends the tag filter and no resources when filtering by tag', () => {
    const body = toScheduleBody(form({ selectBy: 'TAG', resourcesTagKey: 'team', resourcesTagValue: 'web' }), CET);
    expect(body).toMatchObject({ selectBy: 'TAG', resourcesTagKey: 'team', resourcesTagValue: 'web', resources: [] });
  });

  it('accepts a complete form', () => {
    expect(issues(form())).toEqual({});
  });

  it('asks for a name, at least one day, and different wake and sleep hours (spec §5)', () => {
    expect(issues(form({ name: ' ' })).name).toBe(scheduleMessages.name);
    expect(issues(form({ days: [] })).startExpression).toBe(scheduleMessages.range);
    expect(issues(form({ wakeHour: 9, sleepHour: 9 })).days).toBe(scheduleMessages.range);
  });

  it('needs a resource on create unless filtering by tag, and the tag key and value when filtering', () => {
    expect(issues(form({ resources: [] })).resources).toBe(savingScheduleMessages.resources);
    expect(issues(form({ resources: [] }), false).resources).toBeUndefined();
    expect(issues(form({ selectBy: 'TAG', resources: [], resourcesTagKey: 'team' })).resourcesTagValue).toBe(savingScheduleMessages.tag);
  });

  it('asks for the account and the region', () => {
    const e = issues(form({ awsAccountId: '', awsRegion: '' }));
    expect(e.awsAccountId).toBeDefined();
    expect(e.awsRegion).toBeDefined();
  });

  it('reads a stored schedule back in the browser zone', () => {
    const body = toScheduleBody(form({ days: ['SAT', 'SUN'], wakeHour: 0, sleepHour: 23 }), CET);
    const back = scheduleFormFrom(
      {
        schedule: {
          id: 's1',
          name: 'Nights off',
          state: 'ENABLED',
          startExpression: body.startExpression,
          stopExpression: body.stopExpression,
          timezone: 'Europe/Berlin',
          awsAccountId: '123456789012',
          awsRegion: 'eu-central-1',
          resourcesTagKey: COST_TAG_KEY,
          resourcesTagValue: 'gantry-abc',
          createdAt: '2026-01-01T00:00:00.000Z',
        },
        resources: [{ type: 'rds', id: 'db-1' }],
      },
      CET,
    );
    expect(back).toMatchObject({
      days: ['SAT', 'SUN'],
      wakeHour: 0,
      sleepHour: 23,
      selectBy: 'RESOURCES',
      resourcesTagValue: 'gantry-abc',
      resources: [{ type: 'rds', id: 'db-1' }],
    });
  });
});

describe('savings estimate (spec §9)', () => {
  it('is the utilized hours (weekly hours × 4) over 730, on the summed hourly prices', () => {
    // 5 days × 10 h × 4 = 200 h of 730
    const e = scheduleEstimate({ days: ['MON', 'TUE', 'WED', 'THU', 'FRI'], wakeHour: 8, sleepHour: 18 }, [
      resource({ price: 0.1 }),
      resource({ id: 'i-2', price: 0.2 }),
    ]);
    expect(e.utilizedHours).toBe(200);
    expect(e.utilizedPercent).toBe(27.4);
    expect(e.monthlyWithout).toBe(219);
    expect(e.monthlyWith).toBe(60);
    expect(e.monthlySaving).toBe(159);
    expect(e.priced).toBe(2);
  });

  it('counts an Auto Scaling group per instance times its desired capacity, and a resource without a price as 0', () => {
    const asg = resource({ type: 'asg', id: 'web-asg', price: 0.5, asgGroupCapacity: { desiredCapacity: 3, minSize: 1, maxSize: 4 } });
    const e = scheduleEstimate({ days: ['MON'], wakeHour: 22, sleepHour: 2 }, [asg, resource({ id: 'i-3', price: null })]);
    expect(e.utilizedHours).toBe(16); // 4 h across midnight × 1 day × 4
    expect(e.monthlyWithout).toBe(1095);
    expect(e.priced).toBe(1);
  });
});
