/**
 * The limits of a running build's time (spec delivery.md, project build limits): it is stopped FAILED when it
 * runs past the instance's maximum duration (GANTRY_BUILD_MAX_MINUTES), or when its project's build minutes of
 * the month run out while it runs — the plan's check at a trigger alone let endless builds hold every slot of
 * the instance. A limit aborts the build the way a user's stop or the server's does (its steps' boxes end),
 * with a reason of its own; nothing of it outlives the process (its timers end with the run, and a crash
 * leaves the build to the recovery, as any other).
 *
 * Minutes are counted as the plan counts them: a build's start → stop, added to its project's month when it
 * ends. While it runs, its own time so far and that of the project's other running builds are added to what the
 * project's ended builds used (two builds running at once spend the month's minutes twice as fast: each stops when
 * their time together reaches the plan's); the minutes are read again before it is stopped (a build that ended
 * meanwhile, a plan raised) and at least every `checkEveryMs`.
 */
export interface BuildTime {
  /** Aborts on the run's own signal, or when a limit is reached. */
  readonly signal: AbortSignal;
  /** Why a limit stopped the build (undefined: none did). */
  reason(): string | undefined;
  /** Ends the watch (the build ended). */
  stop(): void;
}

const minutesText = (ms: number) => {
  const minutes = Number((ms / 60_000).toFixed(2));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};
export const maxDurationMessage = (maxMs: number) =>
  `The build ran past its maximum duration of ${minutesText(maxMs)} (GANTRY_BUILD_MAX_MINUTES) and was stopped`;
export const minutesRanOutMessage = (limitMs: number) =>
  `The project's build minutes for this month ran out while the build ran (${minutesText(limitMs)} on its plan) and it was stopped`;

/** The build time (ms) that builds started at `started` and running still have used by `now`. */
export const runningMs = (started: Date[], now: number) => started.reduce((sum, at) => sum + Math.max(0, now - at.getTime()), 0);

export function watchBuildTime(o: {
  signal: AbortSignal;
  startedAt: Date;
  maxDurationMs?: number;
  /**
   * The project's build minutes this month: its plan's limit, what its ended builds used (ms), and when its other
   * builds running now started.
   */
  minutes?: () => Promise<{ limitMs: number; usedMs: number; othersStarted?: Date[] }>;
  checkEveryMs?: number;
  /**
   * The first read, after the start: the trigger has just checked the minutes, and most builds end within it —
   * their reads would only compete with their first step's writes (a build with less left ends up to this much late).
   */
  firstCheckMs?: number;
  onError?: (err: unknown) => void;
}): BuildTime {
  const limit = new AbortController();
  const signal = AbortSignal.any([o.signal, limit.signal]);
  let why: string | undefined;
  let stopped = false;
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        fn();
      },
      Math.max(0, ms),
    );
    timers.add(timer);
  };
  const stopFor = (reason: string) => {
    if (stopped || signal.aborted) return;
    why = reason;
    limit.abort(new Error(reason));
  };
  const elapsed = () => Date.now() - o.startedAt.getTime();

  if (o.maxDurationMs !== undefined) later(o.maxDurationMs - elapsed(), () => stopFor(maxDurationMessage(o.maxDurationMs!)));

  const every = o.checkEveryMs ?? 60_000;
  async function check() {
    if (stopped || signal.aborted) return;
    let next = every;
    try {
      const { limitMs, usedMs, othersStarted = [] } = await o.minutes!();
      const now = Date.now();
      const left = limitMs - usedMs - elapsed() - runningMs(othersStarted, now);
      if (left <= 0) return stopFor(minutesRanOutMessage(limitMs));
      // every build running spends them: read again when they would run out at this pace
      next = Math.min(left / (1 + othersStarted.length), every);
    } catch (err) {
      o.onError?.(err);
    }
    if (!stopped) later(next, () => void check());
  }
  if (o.minutes) later(o.firstCheckMs ?? 1000, () => void check());

  return {
    signal,
    reason: () => why,
    stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
