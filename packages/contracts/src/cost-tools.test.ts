import { describe, it, expect } from 'vitest';
import { ReportBody, SavingScheduleBody, advisorSummaries, estimateSavings, awakeHoursPerDay, savingScheduleMessages, reportMessages } from './cost-tools.js';

const base = {
  name: 'Nights',
  startExpression: 'cron(0 8 ? * MON *)',
  stopExpression: 'cron(0 18 ? * MON *)',
  awsAccountId: '123456789012',
  awsRegion: 'eu-west-1',
};

describe('cost tools contracts', () => {
  it('estimates savings with 730 hours a month and awake hours × days × 4', () => {
    expect(awakeHoursPerDay(8, 18)).toBe(10);
    expect(awakeHoursPerDay(22, 6)).toBe(8);
    // 5 days × 10 h × 4 = 200 of 730 hours
    expect(estimateSavings({ days: ['MON', 'TUE', 'WED', 'THU', 'FRI'], wakeHour: 8, sleepHour: 18, hourlyPrice: 0.1 })).toEqual({
      utilizedHours: 200,
      utilizedPercent: 27.4,
      savingPercent: 72.6,
      monthlyWithout: 73,
      monthlyWith: 20,
      monthlySaving: 53,
    });
  });

  it('writes the four advisor summaries', () => {
    const failed = { status: 'SUCCESS' as const, error: null, idleLoadBalancers: [], total: 0 };
    const s = advisorSummaries({
      ec2: {
        status: 'SUCCESS',
        error: null,
        lowUtilizationInstances: [{ instanceId: 'i-1', name: null, instanceType: null, lowDays: 5, averageCpuPercent: 1 }],
        totalInstances: 3,
      },
      elb: { classicELBStats: failed, nonClassicELBStats: failed },
      rds: { status: 'SUCCESS', error: null, idleRelationalDBResources: [], totalRelationalDBResources: 2 },
    });
    expect(s).toEqual({
      ec2: '1 of 3 EC2 instances have low average daily utilization',
      classicElb: '0 classic load balancers appear idle',
      nonClassicElb: '0 application, network and gateway load balancers appear idle',
      rds: '0 of 2 DB instances appear idle',
    });
  });

  it('takes the environment form body as a tag schedule and needs a tag when selecting by tag', () => {
    expect(SavingScheduleBody.parse({ ...base, resourcesTagValue: 'stage-1' })).toMatchObject({
      selectBy: 'TAG',
      resourcesTagKey: 'gantry:cost-optimizer',
      resources: [],
    });
    const r = SavingScheduleBody.safeParse({ ...base, selectBy: 'TAG', resourcesTagValue: ' ' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toBe(savingScheduleMessages.tag);
    expect(SavingScheduleBody.parse({ ...base, selectBy: 'RESOURCES', resources: [{ type: 'ec2', id: 'i-1' }] }).resourcesTagValue).toBe('');
  });

  it('strips spaces from report e-mails and needs a 3-character name', () => {
    const body = { reportName: 'Weekly', awsAccountIds: ['123456789012'], regions: ['eu-west-1'], emails: [' a@b.io ', 'C @d.io'], granularity: 'WEEKLY' };
    expect(ReportBody.parse(body)).toMatchObject({ emails: ['a@b.io', 'c@d.io'], costAllocationTag: null });
    expect(ReportBody.safeParse({ ...body, reportName: 'ab' }).error!.issues[0]!.message).toBe(reportMessages.name);
  });
});
