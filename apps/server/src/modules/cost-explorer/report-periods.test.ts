import { describe, it, expect } from 'vitest';
import { lastSendAt, nextSendAt, periodBefore } from './report-periods.js';

const at = (s: string) => new Date(s);
const iso = (d: Date) => d.toISOString();

describe('report send times (UTC)', () => {
  it('weekly: Mondays at 00:00 for the week before', () => {
    expect(iso(lastSendAt('WEEKLY', at('2026-11-20T12:00:00Z')))).toBe('2026-11-16T00:00:00.000Z'); // a Friday
    expect(iso(lastSendAt('WEEKLY', at('2026-11-16T00:00:00Z')))).toBe('2026-11-16T00:00:00.000Z');
    expect(iso(lastSendAt('WEEKLY', at('2026-11-22T23:59:59Z')))).toBe('2026-11-16T00:00:00.000Z'); // a Sunday
    expect(iso(nextSendAt('WEEKLY', at('2026-11-16T00:00:00Z')))).toBe('2026-11-23T00:00:00.000Z');
    const p = periodBefore('WEEKLY', at('2026-11-16T00:00:00Z'));
    expect([iso(p.start), iso(p.end)]).toEqual(['2026-11-09T00:00:00.000Z', '2026-11-16T00:00:00.000Z']);
  });

  it('monthly: the 1st at 00:00 for the month before, across a year end', () => {
    expect(iso(lastSendAt('MONTHLY', at('2026-11-20T12:00:00Z')))).toBe('2026-11-01T00:00:00.000Z');
    expect(iso(nextSendAt('MONTHLY', at('2026-12-31T23:00:00Z')))).toBe('2027-01-01T00:00:00.000Z');
    const p = periodBefore('MONTHLY', at('2027-01-01T00:00:00Z'));
    expect([iso(p.start), iso(p.end)]).toEqual(['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
  });
});
