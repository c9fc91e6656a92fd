import { describe, expect, it, vi } from 'vitest';
import { createTicker, type TickerTimers } from './ticker.js';

/** An interval fired by hand. */
function manualTimers() {
  const due = new Set<() => void>();
  const timers: TickerTimers = {
    every(fn) {
      due.add(fn);
      return { cancel: () => due.delete(fn) };
    },
  };
  return {
    timers,
    fire: () => [...due].forEach((fn) => fn()),
    get armed() {
      return due.size;
    },
  };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

describe('ticker', () => {
  it('ticks at start and on every interval, and not after stop', async () => {
    const clock = manualTimers();
    let ticks = 0;
    const t = createTicker({ name: 'test', tick: async () => void ticks++, timers: clock.timers });
    t.start(1000);
    await vi.waitFor(() => expect(t.running).toBe(false));
    expect(ticks).toBe(1);
    clock.fire();
    await vi.waitFor(() => expect(ticks).toBe(2));
    await t.stop();
    expect(clock.armed).toBe(0);
    clock.fire();
    expect(ticks).toBe(2);
  });

  it('does not start a tick while one is running, and stop waits for the running one', async () => {
    const clock = manualTimers();
    const g = gate();
    let started = 0;
    let finished = 0;
    const t = createTicker({
      name: 'test',
      tick: async () => {
        started++;
        await g.opened;
        finished++;
      },
      timers: clock.timers,
    });
    t.start(1000);
    clock.fire();
    clock.fire();
    expect(started).toBe(1);
    expect(t.running).toBe(true);
    const stopped = t.stop();
    let stopDone = false;
    void stopped.then(() => (stopDone = true));
    await Promise.resolve();
    expect(stopDone).toBe(false);
    g.open();
    await stopped;
    expect(finished).toBe(1);
    expect(t.running).toBe(false);
  });

  it('logs a failing tick (thrown or rejected) and keeps ticking', async () => {
    const clock = manualTimers();
    const error = vi.fn();
    let n = 0;
    const t = createTicker({
      name: 'test',
      tick: () => {
        n++;
        if (n === 1) throw new Error('sync boom');
        if (n === 2) return Promise.reject(new Error('async boom'));
        return Promise.resolve();
      },
      log: { error },
      timers: clock.timers,
    });
    t.start(1000);
    await vi.waitFor(() => expect(t.running).toBe(false));
    expect(error).toHaveBeenCalledTimes(1);
    clock.fire();
    await vi.waitFor(() => expect(t.running).toBe(false));
    expect(error).toHaveBeenCalledTimes(2);
    expect(error.mock.calls.map((c) => (c[0] as { err: Error }).err.message)).toEqual(['sync boom', 'async boom']);
    expect(error.mock.calls[0]![1]).toBe('test tick failed');
    clock.fire();
    await t.stop();
    expect(n).toBe(3);
    expect(error).toHaveBeenCalledTimes(2);
  });

  it('start without an immediate tick waits for the interval; a second start is ignored', async () => {
    const clock = manualTimers();
    let ticks = 0;
    const t = createTicker({ name: 'test', tick: async () => void ticks++, timers: clock.timers });
    t.start(1000, { immediately: false });
    t.start(1000);
    expect(ticks).toBe(0);
    expect(clock.armed).toBe(1);
    clock.fire();
    await t.stop();
    expect(ticks).toBe(1);
  });
});
