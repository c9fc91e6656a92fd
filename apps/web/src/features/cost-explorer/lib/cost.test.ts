import { describe, expect, it } from 'vitest';
import type { CostData } from '@gantry/contracts';
import { barShares, dollars, monthChange, monthLabel, topAccounts } from './cost';

describe('cost explorer figures', () => {
  it('shows whole dollars (spec §9)', () => {
    expect(dollars(1234.5)).toBe('$1,235');
    expect(dollars(0)).toBe('$0');
  });

  it('keeps the top 3 accounts, highest first', () => {
    const byAccount = [1, 5, 3, 9].map((amount, i) => ({ awsAccountId: String(i), accountName: null, amount }));
    expect(topAccounts({ byAccount } as CostData).map((a) => a.amount)).toEqual([9, 5, 3]);
  });

  it('scales bars to the largest, and to nothing when all are 0', () => {
    expect(barShares([{ amount: 50 }, { amount: 100 }]).map((r) => r.share)).toEqual([50, 100]);
    expect(barShares([{ amount: 0 }]).map((r) => r.share)).toEqual([0]);
  });

  it('names months and compares the current with the last', () => {
    expect(monthLabel('2026-01')).toBe('Jan 2026');
    expect(monthChange({ costForTheLastMonth: 200, costForTheCurrentMonth: 150 })).toBe(-25);
    expect(monthChange({ costForTheLastMonth: 0, costForTheCurrentMonth: 150 })).toBeNull();
  });
});
