import { describe, it, expect } from 'vitest';
import { watchBuildTime, maxDurationMessage, minutesRanOutMessage } from './build-time-limits.js';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('watchBuildTime', () => {
  it('stops at the maximum duration, counted from the build’s start', async () => {
    const run = new AbortController();
    const time = watchBuildTime({ signal: run.signal, startedAt: new Date(Date.now() - 50), maxDurationMs: 80 });
    await pause(10);
    expect(time.signal.aborted).toBe(false);
    await pause(60);
    expect([time.signal.aborted, time.reason()]).toEqual([true, maxDurationMessage(80)]);
  });

  it('reads the minutes again before it stops: a plan raised meanwhile lets the build go on', async () => {
    const reads: number[] = [];
    let limitMs = 60_000;
    const time = watchBuildTime({
      signal: new AbortController().signal,
      startedAt: new Date(),
      // 40 ms left at the start; the plan is raised before they ran out, then lowered under what was used
      minutes: async () => (reads.push(Date.now()), { limitMs, usedMs: 60_000 - 40 }),
      checkEveryMs: 1000,
      firstCheckMs: 0,
    });
    await pause(5); // read once: 40 ms left
    limitMs = 120_000;
    await pause(75);
    expect(reads.length).toBe(2);
    expect(time.signal.aborted).toBe(false);
    time.stop();
    const lowered = watchBuildTime({
      signal: new AbortController().signal,
      startedAt: new Date(),
      minutes: async () => ({ limitMs: 60_000, usedMs: 60_000 }),
      firstCheckMs: 0,
    });
    await pause(10);
    expect([lowered.signal.aborted, lowered.reason()]).toEqual([true, minutesRanOutMessage(60_000)]);
  });

  it("counts the project's other running builds: two builds at once spend the minutes twice as fast", async () => {
    const startedAt = new Date();
    const reads: number[] = [];
    // 200 ms left of the month's minutes, and another build of the project started with this one
    const time = watchBuildTime({
      signal: new AbortController().signal,
      startedAt,
      minutes: async () => (reads.push(Date.now() - startedAt.getTime()), { limitMs: 60_000, usedMs: 60_000 - 200, othersStarted: [startedAt] }),
      checkEveryMs: 1000,
      firstCheckMs: 0,
    });
    await pause(160);
    expect([time.signal.aborted, time.reason()]).toEqual([true, minutesRanOutMessage(60_000)]);
    // read at once, then when the two would have spent them (100 ms), not at 200
    expect(reads).toHaveLength(2);
    expect(reads[1]).toBeGreaterThanOrEqual(95);
    time.stop();
  });

  it('reads no minutes in its first moment (the trigger has just checked them): a short build reads none', async () => {
    let reads = 0;
    const time = watchBuildTime({
      signal: new AbortController().signal,
      startedAt: new Date(),
      minutes: async () => (reads++, { limitMs: 60_000, usedMs: 60_000 }),
      firstCheckMs: 40,
    });
    await pause(10);
    expect([reads, time.signal.aborted]).toEqual([0, false]);
    await pause(60);
    expect([reads, time.reason()]).toEqual([1, minutesRanOutMessage(60_000)]);
    const short = watchBuildTime({ signal: new AbortController().signal, startedAt: new Date(), minutes: async () => (reads++, { limitMs: 0, usedMs: 0 }) });
    await pause(10);
    short.stop();
    await pause(1100);
    expect(reads).toBe(1);
  });

  it('keeps a user’s stop as it was, and ends its timers with the build', async () => {
    const run = new AbortController();
    const time = watchBuildTime({ signal: run.signal, startedAt: new Date(), maxDurationMs: 30 });
    run.abort();
    await pause(50);
    expect([time.signal.aborted, time.reason()]).toEqual([true, undefined]);
    const ended = watchBuildTime({ signal: new AbortController().signal, startedAt: new Date(), maxDurationMs: 30 });
    ended.stop();
    await pause(50);
    expect(ended.signal.aborted).toBe(false);
  });
});
