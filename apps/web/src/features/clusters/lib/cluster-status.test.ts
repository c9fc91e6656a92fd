import { describe, expect, it } from 'vitest';
import { deploymentSlices, isReachable, pieLabel, pieShares, podCountColor, podSlices, podTone, round2, TONE_COLOR } from './cluster-status';

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

describe('pie labels (spec §2: hidden at 0, only the percentage at 10 or below)', () => {
  it.each([
    ['Ready', 0, null],
    ['Ready', 5, '5%'],
    ['Ready', 10, '10%'],
    ['Ready', 10.01, 'Ready 10.01%'],
    ['Failed', 90, 'Failed 90%'],
  ])('%s at %s%% → %j', (name, pct, label) => expect(pieLabel(name, pct)).toBe(label));

  it('shares slices of the whole, rounded to 2 decimals, 0 with nothing', () => {
    expect(pieShares(podSlices({ runningPods: 2, failedPods: 1, pendingPods: 0, succeededPods: 0, totalPods: 3 })).map((s) => s.percent)).toEqual([
      66.67, 33.33, 0,
    ]);
    expect(pieShares(deploymentSlices({ total: 0, available: 0 })).map((s) => s.percent)).toEqual([0, 0]);
    expect(deploymentSlices({ total: 5, available: 4 }).map((s) => s.value)).toEqual([4, 1]);
  });
});
