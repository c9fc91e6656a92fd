import { describe, expect, it } from 'vitest';
import { rolloutProgress } from './rollout';

describe('rollout progress (the deploying modal)', () => {
  it('is the share of ready pods, null without deployment information', () => {
    expect(rolloutProgress(null)).toBeNull();
    expect(rolloutProgress({ desired: 3, ready: 1 })).toBe(33);
    expect(rolloutProgress({ desired: 2, ready: 2 })).toBe(100);
    expect(rolloutProgress({ desired: 2, ready: 5 })).toBe(100);
    expect(rolloutProgress({ desired: 0, ready: 0 })).toBe(100);
  });
});
