import { describe, it, expect } from 'vitest';
import { aggregateCosts, lastTwelveMonths, type AccountCosts, type AccountOutcome } from './aggregate.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const account = (id: string, o: Partial<AccountCosts> = {}): AccountOutcome => ({
  ok: true,
  costs: {
    awsAccountId: id,
    accountName: `acct ${id}`,
    months: lastTwelveMonths(NOW).map((month) => ({ month, amount: 0 })),
    services: {},
    environments: {},
    forecast: { restOfMonth: 10, nextYear: 1000 },
    ...o,
  },
});
const months = (last: number, current: number) => lastTwelveMonths(NOW).map((month, i) => ({ month, amount: i === 11 ? current : i === 10 ? last : 1 }));

describe('cost dashboard aggregation (spec §2.10, §9)', () => {
  it('names the last 12 months up to the current one, oldest first, across a year end', () => {
    expect(lastTwelveMonths(NOW)).toHaveLength(12);
    expect(lastTwelveMonths(NOW)[0]).toBe('2025-12');
    expect(lastTwelveMonths(NOW)[11]).toBe('2026-11');
    expect(lastTwelveMonths(new Date('2027-01-01T00:00:00Z')).slice(-2)).toEqual(['2026-12', '2027-01']);
  });

  it('lists accounts highest first so the top 3 are the first three', () => {
    const d = aggregateCosts(
      [5, 40, 12, 30].map((c, i) => account(String(i), { months: months(0, c) })),
      NOW,
    );
    expect(d.byAccount.map((a) => a.amount)).toEqual([40, 30, 12, 5]);
    expect(d.byAccount.slice(0, 3).map((a) => a.awsAccountId)).toEqual(['1', '3', '2']);
    expect(d.costForTheCurrentMonth).toBe(87);
  });

  it('rounds to whole dollars after summing, so cents do not drift', () => {
    const d = aggregateCosts([account('a', { months: months(10.4, 0.5) }), account('b', { months: months(10.4, 0.4) })], NOW);
    expect(d.costForTheLastMonth).toBe(21); // 20.8, not 10 + 10
    expect(d.costForTheCurrentMonth).toBe(1); // 0.9
    expect(d.byAccount.map((a) => a.amount)).toEqual([1, 0]);
    expect(d.yearlyByMonth.map((m) => m.amount)).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 21, 1]);
    for (const n of [d.costForTheLastMonth, ...d.yearlyByMonth.map((m) => m.amount)]) expect(Number.isInteger(n)).toBe(true);
  });

  it('splits EC2 (compute and EC2 - Other), RDS and all services', () => {
    const services = {
      'Amazon Elastic Compute Cloud - Compute': 100.4,
      'EC2 - Other': 20.3,
      'Amazon Relational Database Service': 50.5,
      'Amazon Simple Storage Service': 9,
    };
    const d = aggregateCosts([account('a', { services }), account('b', { services: { 'Amazon Relational Database Service': 0.2 } })], NOW);
    expect(d.byService).toEqual({ ec2: 121, rds: 51, allServices: 180 });
  });

  it("groups by the environment tag's values across accounts, untagged as '', highest first", () => {
    const d = aggregateCosts(
      [account('a', { environments: { 'stage-1': 10.2, '': 3 } }), account('b', { environments: { 'stage-2': 4, 'stage-1': 5.4, '': 0.4 } })],
      NOW,
    );
    expect(d.byEnvironment).toEqual([
      { tagValue: 'stage-1', amount: 16 },
      { tagValue: 'stage-2', amount: 4 },
      { tagValue: '', amount: 3 },
    ]);
  });

  it('estimates the month as its cost so far plus the forecast rest, and the next year', () => {
    const d = aggregateCosts([account('a', { months: months(0, 60.6), forecast: { restOfMonth: 30.2, nextYear: 1200.7 } })], NOW);
    expect(d.estimates).toEqual({ currentMonth: 91, nextYear: 1201 });
  });

  it('a forecast AWS has no history for is null (Insufficient Historical Data); accounts without one add nothing', () => {
    const none = { restOfMonth: null, nextYear: null };
    expect(aggregateCosts([account('a', { forecast: none })], NOW).estimates).toEqual({ currentMonth: null, nextYear: null });
    const mixed = aggregateCosts([account('a', { forecast: none, months: months(0, 50) }), account('b', { months: months(0, 5) })], NOW);
    expect(mixed.estimates).toEqual({ currentMonth: 15, nextYear: 1000 });
    expect(aggregateCosts([], NOW).estimates).toEqual({ currentMonth: null, nextYear: null });
  });

  it('lists the accounts whose calls failed and leaves them out of the figures', () => {
    const d = aggregateCosts([account('a', { months: months(0, 7) }), { ok: false, awsAccountId: 'b', message: 'AccessDeniedException: not allowed' }], NOW);
    expect(d.failures).toEqual([{ awsAccountId: 'b', message: 'AccessDeniedException: not allowed' }]);
    expect(d.byAccount.map((a) => a.awsAccountId)).toEqual(['a']);
    expect(d.costForTheCurrentMonth).toBe(7);
  });
});
