import os from 'node:os';
import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { settledWithin } from './shutdown.js';
import { createTicker } from './ticker.js';

/**
 * The job kit every kind of run shares (DESIGN §3, §5): claim a queued run by compare-and-set (two
 * workers never run the same one), a heartbeat while it runs, cancel through the row's flag or the
 * local abort, recovery of runs whose worker died, a fast local start, and the stop of a server.
 * The domain brings a small store and `execute(run, signal)`; the kit owns everything in between.
 */

/** Where a kit keeps its runs: what it needs of the domain's rows. */
export interface RunKitStore<Run, Stale extends StaleRun = StaleRun> {
  /** Takes a queued run for `workerId` by compare-and-set; answers it, or undefined when another worker took it first, or it ended or is gone. */
  claim(id: string, workerId: string): Promise<Run | undefined>;
  /** Tells that this process still runs these (it is not dead). */
  heartbeat(ids: string[]): Promise<void>;
  /** Of these running ids, the ones a user asked to cancel (through the database, from any process). */
  cancelRequested?(ids: string[]): Promise<string[]>;
  /**
   * Whether the claimed run was asked to cancel before its claim, read from the claimed row itself (saves
   * asking cancelRequested once more; a cancel after the claim reaches the run through cancel() or the heartbeat).
   */
  cancelledAtClaim?(run: Run): boolean;
  /** Runs claimed by a worker that has not beaten since `olderThan` (its process died), and any other run the domain counts as stuck. */
  staleRuns(olderThan: Date): Promise<Stale[]>;
  /**
   * Ends a run FAILED with `reason` (a compare-and-set from running: a run that ended meanwhile is left
   * as it is) and cleans up after it. `recovered` is given when the recovery fails a stale run.
   */
  markFailed(id: string, reason: string, recovered?: { run: Stale; olderThan: Date }): Promise<unknown>;
}

export interface StaleRun {
  id: string;
  workerId: string | null;
  heartbeatAt: Date | null;
}

/** The runs of one process that several kits share: concurrency, the stop, and the worker id. */
export interface RunPool {
  readonly workerId: string;
  /** Work of this pool, from its claim to its end (the stop waits for these). */
  readonly works: Set<Promise<unknown>>;
  /** The runs this process holds, by id. */
  readonly runs: Map<string, { abort: AbortController; stopReason: () => Error }>;
  stopping: boolean;
}

export const hostOfWorker = (workerId: string | null) => workerId?.split(':')[0];

/** A run slot reserved in this process (reserve): the run is claimed by `workerId` as it is queued. */
export interface RunSlot<Run> {
  readonly workerId: string;
  start(id: string, run: Run): void;
  release(): void;
}

export function createRunPool(): RunPool {
  return { workerId: `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`, works: new Set(), runs: new Map(), stopping: false };
}

/** The abort reason of a run ended by the server stopping; any other abort is a user's cancel. */
export class ServerStopped extends Error {}
export const stoppedByServer = (signal: AbortSignal) => signal.reason instanceof ServerStopped;

export const HEARTBEAT_MS = 2000;

export interface RunKitOptions<Run, Stale extends StaleRun> {
  /** What a run is called in the log ("build"). */
  name: string;
  store: RunKitStore<Run, Stale>;
  /** Runs a claimed run to its end, its final state written. `signal` aborts on a cancel or a server stop (`stoppedByServer`). */
  execute(run: Run, signal: AbortSignal): Promise<void>;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** Runs this process starts itself through runSoon, at most (the durable job's own workers are bounded by pg-boss). */
  concurrency: number;
  /** A run whose worker has not beaten for this long belongs to a dead process. */
  staleAfterMs: number;
  /** A run of a worker on another host is left to that host's own sweep until it has not beaten for this long. */
  otherHostStaleAfterMs?: number;
  /** Why a run whose worker died ended. */
  staleReason: string;
  /** Why a run this process held ended at a server stop. */
  interruptedReason: string;
  /** At a stop, a run still going after `withinMs`: 'fail' it with interruptedReason here (default), or 'leave' it to the next start's recovery. */
  lateOnStop?: 'fail' | 'leave';
  heartbeatMs?: number;
  /** Share one pool between kits of one domain (one worker id, one concurrency, one stop). */
  pool?: RunPool;
}

export function createRunKit<Run, Stale extends StaleRun = StaleRun>(o: RunKitOptions<Run, Stale>) {
  const { store, log, name } = o;
  const pool = o.pool ?? createRunPool();
  const own = new Set<string>();
  const host = os.hostname();

  let timer: NodeJS.Timeout | undefined;
  let beating = false;
  async function beat() {
    if (beating || !own.size) return;
    beating = true;
    const ids = [...own];
    try {
      await store.heartbeat(ids);
      for (const id of (await store.cancelRequested?.(ids)) ?? []) pool.runs.get(id)?.abort.abort();
    } catch (err) {
      log.warn({ err, ids }, `${name} heartbeat failed`);
    } finally {
      beating = false;
    }
  }
  function hold(id: string, abort: AbortController) {
    pool.runs.set(id, { abort, stopReason: () => new ServerStopped(o.interruptedReason) });
    own.add(id);
    timer ??= setInterval(() => void beat(), o.heartbeatMs ?? HEARTBEAT_MS);
  }
  function release(id: string) {
    pool.runs.delete(id);
    own.delete(id);
    if (!own.size && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  }

  /** Runs runSoon started in this process, until their claim is known: whether this process took them. */
  const startedHere = new Map<string, Promise<boolean>>();

  async function claimAndExecute(id: string, onClaim?: (took: boolean) => void) {
    let run: Run | undefined;
    try {
      run = await store.claim(id, pool.workerId);
    } finally {
      onClaim?.(run !== undefined);
    }
    if (run !== undefined) await executeClaimed(id, run);
  }

  async function executeClaimed(id: string, run: Run) {
    const abort = new AbortController();
    hold(id, abort);
    try {
      if (pool.stopping) abort.abort(new ServerStopped(o.interruptedReason));
      // a cancel asked for before the claim
      else if (store.cancelledAtClaim) {
        if (store.cancelledAtClaim(run)) abort.abort();
      } else if (store.cancelRequested) {
        try {
          if ((await store.cancelRequested([id])).includes(id)) abort.abort();
        } catch (err) {
          log.warn({ err, id }, `could not read whether a ${name} was cancelled`);
        }
      }
      await o.execute(run, abort.signal);
    } finally {
      release(id);
    }
  }

  async function track(work: Promise<void>) {
    pool.works.add(work);
    try {
      await work;
    } finally {
      pool.works.delete(work);
    }
  }

  /**
   * Claims and runs `id` here (the durable job's handler); does nothing when another worker took it,
   * nor when runSoon of this process took it (the job is then only the record a crash before that claim needed).
   */
  async function run(id: string) {
    const local = startedHere.get(id);
    if (local && (await local)) return;
    await track(claimAndExecute(id));
  }

  /**
   * Starts a just-queued run in this process when a slot is free, instead of at the next poll. The durable
   * job stays the source of truth: whichever of the two claims it first runs it. Answers whether it starts here.
   */
  function runSoon(id: string): boolean {
    // once stopping, a queued run is left to its durable job: the next start runs it
    if (pool.stopping || pool.works.size >= o.concurrency) return false;
    let onClaim!: (took: boolean) => void;
    startedHere.set(
      id,
      new Promise((resolve) => {
        onClaim = resolve;
      }),
    );
    setImmediate(
      () =>
        void track(claimAndExecute(id, onClaim))
          .catch((err) => log.error({ err, id }, `${name} failed to run`))
          .finally(() => startedHere.delete(id)),
    );
    return true;
  }

  /**
   * A slot for a run this process claims as it queues it (the domain writes its row already claimed by `workerId`:
   * no claim and no durable job follow; a crash before it ran leaves a run whose worker stopped beating, which the
   * recovery fails). `start` runs it; `release` gives the slot back when it was not queued after all (a no-op once
   * started). Undefined when no slot is free or the server is stopping: the run is queued for any worker then.
   */
  function reserve(): RunSlot<Run> | undefined {
    if (pool.stopping || pool.works.size >= o.concurrency) return undefined;
    let free!: () => void;
    const held = new Promise<void>((resolve) => (free = resolve));
    pool.works.add(held);
    let open = true;
    const take = () => {
      if (!open) return false;
      open = false;
      pool.works.delete(held);
      free();
      return true;
    };
    return {
      workerId: pool.workerId,
      start(id, run) {
        if (take()) void track(executeClaimed(id, run)).catch((err) => log.error({ err, id }, `${name} failed to run`));
      },
      release: () => void take(),
    };
  }

  /** Aborts a run of this process (a user's cancel; the domain also sets the row's flag for other workers). */
  function cancel(id: string) {
    if (own.has(id)) pool.runs.get(id)?.abort.abort();
  }

  /** Runs whose worker died end FAILED with staleReason (a run this process holds is never stale). */
  async function recover() {
    const now = Date.now();
    const olderThan = new Date(now - o.staleAfterMs);
    for (const s of await store.staleRuns(olderThan)) {
      if (pool.runs.has(s.id)) continue;
      if (
        o.otherHostStaleAfterMs &&
        s.workerId &&
        hostOfWorker(s.workerId) !== host &&
        s.heartbeatAt &&
        now - s.heartbeatAt.getTime() < o.otherHostStaleAfterMs
      )
        continue;
      await store.markFailed(s.id, o.staleReason, { run: s, olderThan });
    }
  }

  const recovery = createTicker({ name: `${name} recovery`, tick: recover, log });
  /** For a process that runs workers: recovers now (a failure fails the start), then every `recoverEveryMs`. */
  async function start(recoverEveryMs: number) {
    await recover();
    recovery.start(recoverEveryMs, { immediately: false });
  }

  /**
   * A server stop: no more recovery sweeps, starts nothing more, aborts every run of the pool (their domain ends each FAILED
   * with its interrupted reason, log stored), and waits for them up to `withinMs`. A run of this kit
   * still going then is failed here while the database is still open, or left to the next start's
   * recovery (lateOnStop 'leave').
   */
  async function stop(withinMs: number) {
    const recovered = recovery.stop();
    pool.stopping = true;
    for (const r of pool.runs.values()) r.abort.abort(r.stopReason());
    await recovered;
    if (await settledWithin(Promise.allSettled([...pool.works]), withinMs)) return;
    if (o.lateOnStop === 'leave') {
      log.warn({ runs: [...own] }, `${name}s did not end in time for the server stop; the next start recovers them`);
      return;
    }
    for (const id of [...own]) {
      log.warn({ id }, `a ${name} did not end in time for the server stop`);
      await store.markFailed(id, o.interruptedReason);
    }
  }

  return { run, runSoon, reserve, cancel, recover, start, stop, workerId: pool.workerId, pool, isLocal: (id: string) => own.has(id) };
}
export type RunKit = ReturnType<typeof createRunKit>;
