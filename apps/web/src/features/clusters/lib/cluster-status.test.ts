import { describe, expect, it } from 'vitest';
import { isReachable, podCountColor, podTone, round2, TONE_COLOR } from './cluster-status';

describe('pod colours (spec §2, §4)', () => {
  it('is red when any pod failed, even with pending ones', () => {
    expect(podTone({ failedPods: 1, pendingPods: 3 })).toBe('failed');
    expect(TONE_COLOR[podTone({ failedPods: 2, pendingPods: 0 })]).toBe('red');
  });

  it('is yellow when none failed and any is pending', () => {
    expect(podTone({ failedPods: 0, pendingPods: 1 })).toBe('pending');
    expect(TONE_COLOR.pending).toBe('yellow');
  });

  it('is calm when none failed nor pending', () => {
    expect(podTone({ failedPods: 0, pendingPods: 0 })).toBe('ok');
  });

  it('colours the header figures: failed red above 0, pending yellow above 0, running never', () => {
    expect(podCountColor('failed', 0)).toBeUndefined();
    expect(podCountColor('failed', 1)).toBe('red');
    expect(podCountColor('pending', 0)).toBeUndefined();
    expect(podCountColor('pending', 4)).toBe('yellow');
    expect(podCountColor('running', 9)).toBeUndefined();
  });
});

describe('status figures', () => {
  it('rounds utilization to 2 decimals', () => {
    expect(round2(12.345)).toBe(12.35);
    expect(round2(80)).toBe(80);
    expect(round2(1 / 3)).toBe(0.33);
  });

  it('a cluster is reachable only with a podStatus', () => {
    expect(isReachable(null)).toBe(false);
    expect(isReachable(undefined)).toBe(false);
    expect(isReachable({ podStatus: { runningPods: 0, succeededPods: 0, failedPods: 0, pendingPods: 0, totalPods: 0 } } as never)).toBe(true);
  });
});
