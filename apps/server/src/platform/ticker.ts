import type { FastifyBaseLogger } from 'fastify';

/** Where a ticker's interval comes from; tests pass one they fire by hand. */
export interface TickerTimers {
  every(fn: () => void, ms: number): { cancel(): void };
}

export const realTimers: TickerTimers = {
  every(fn, ms) {
    const t = setInterval(fn, ms);
    t.unref();
    return { cancel: () => clearInterval(t) };
  },
};

/**
 * A periodic worker loop: `tick` runs at start and then every `everyMs`. A tick that is still
 * running when the next is due is not doubled (the due one is dropped); a failing tick is logged
 * and the loop goes on; `stop` cancels the interval and waits for a running tick to end.
 */
export function createTicker(o: { name: string; tick: () => Promise<unknown>; log?: Pick<FastifyBaseLogger, 'error'>; timers?: TickerTimers }) {
  const timers = o.timers ?? realTimers;
  let interval: { cancel(): void } | undefined;
  let ticking: Promise<void> | undefined;
  /** A tick now, or the one already running. */
  const runNow = () =>
    (ticking ??= (async () => o.tick())()
      .then(
        () => undefined,
        (err: unknown) => o.log?.error({ err }, `${o.name} tick failed`),
      )
      .finally(() => (ticking = undefined)));
  return {
    runNow,
    /** Ticks now (unless `immediately` is false) and every `everyMs`; a second start is ignored. */
    start(everyMs: number, { immediately = true } = {}) {
      if (interval) return;
      if (immediately) void runNow();
      interval = timers.every(() => void runNow(), everyMs);
    },
    async stop() {
      interval?.cancel();
      interval = undefined;
      await ticking;
    },
    get running() {
      return !!ticking;
    },
  };
}
export type Ticker = ReturnType<typeof createTicker>;
