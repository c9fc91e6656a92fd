import { describe, expect, it } from 'vitest';
import { handedRollout, rolloutProgress } from './rollout';

describe('rollout progress (the deploying modal)', () => {
  it('is the share of ready pods, null without deployment information', () => {
    expect(rolloutProgress(null)).toBeNull();
    expect(rolloutProgress({ desired: 3, ready: 1 })).toBe(33);
    expect(rolloutProgress({ desired: 2, ready: 2 })).toBe(100);
    expect(rolloutProgress({ desired: 2, ready: 5 })).toBe(100);
    expect(rolloutProgress({ desired: 0, ready: 0 })).toBe(100);
  });
});

describe('a rollout handed to the cluster dashboard', () => {
  it('is followed at once when just handed over', () => {
    expect(handedRollout(true, { read: false })).toBe('follow');
  });

  it('read again (a reload, Back) is followed only while the server says it is under way', () => {
    expect(handedRollout(false, { read: false })).toBe('wait');
    expect(handedRollout(false, { read: true, replicas: { desired: 3, ready: 1 } })).toBe('follow');
    expect(handedRollout(false, { read: true, replicas: { desired: 2, ready: 2 } })).toBe('forget');
    expect(handedRollout(false, { read: true, replicas: null })).toBe('forget');
    expect(handedRollout(false, { read: true })).toBe('forget');
  });
});
