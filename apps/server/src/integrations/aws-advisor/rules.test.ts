import { describe, it, expect } from 'vitest';
import { isLowUseDay, lowUseDays, isLowUtilization, isIdleLoadBalancer, isIdleDatabase } from './rules.js';

const MB = 1024 * 1024;
const days = (values: number[]) => new Map(values.map((v, i) => [i * 86_400_000, v]));

describe('waste advisor rules (spec §9) at their boundaries', () => {
  it('a low-use EC2 day is CPU ≤ 10 % and network ≤ 5 MB, both', () => {
    expect(isLowUseDay(10, 5 * MB)).toBe(true);
    expect(isLowUseDay(10.01, 5 * MB)).toBe(false);
    expect(isLowUseDay(10, 5 * MB + 1)).toBe(false);
    expect(isLowUseDay(0, 0)).toBe(true);
  });

  it('low utilization is 4 or more low-use days; a day needs both metrics', () => {
    expect(isLowUtilization(4)).toBe(true);
    expect(isLowUtilization(3)).toBe(false);
    const cpu = days([1, 1, 1, 1, 50, 1]);
    const net = days([MB, MB, MB, 6 * MB, MB]);
    // day 3 too much traffic, day 4 busy CPU, day 5 no network data
    expect(lowUseDays(cpu, net)).toBe(3);
    expect(isLowUtilization(lowUseDays(cpu, days([MB, MB, MB, MB, MB, MB])))).toBe(true);
  });

  it('a load balancer is idle with fewer than 100 requests or flows on each day', () => {
    expect(isIdleLoadBalancer([99, 0, 99, 12, 0, 0, 1])).toBe(true);
    expect(isIdleLoadBalancer([99, 0, 100, 12, 0, 0, 1])).toBe(false);
    expect(isIdleLoadBalancer([])).toBe(true);
  });

  it('a DB instance is idle with 0 connections on every day', () => {
    expect(isIdleDatabase([0, 0, 0, 0, 0, 0, 0])).toBe(true);
    expect(isIdleDatabase([0, 0, 0, 1, 0, 0, 0])).toBe(false);
    expect(isIdleDatabase([])).toBe(true);
  });
});
