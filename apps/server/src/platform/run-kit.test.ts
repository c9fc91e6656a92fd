import os from 'node:os';
import { describe, it, expect } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createRunKit, createRunPool, stoppedByServer, type RunKitStore, type StaleRun } from './run-kit.js';
import { until } from '../../test/helpers.js';

/** The job kit on a small in-memory store: the rows a domain would keep, with compare-and-set claims. */
interface Row {
  id: string;
  status: 'QUEUED' | 'RUNNING' | 'DONE' | 'FAILED';
  workerId: string | null;
  heartbeatAt: Date | null;
  cancel: boolean;
  reason: string | null;
}

function memoryStore(rows: Row[]) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const calls = { heartbeats: 0 };
  const store: RunKitStore<Row, StaleRun> = {
    async claim(id, workerId) {
      await new Promise((r) => setImmediate(r)); // a database round trip: both claims are in flight together
      const r = byId.get(id);
      if (!r || r.status !== 'QUEUED') return undefined;
      Object.assign(r, { status: 'RUNNING', workerId, heartbeatAt: new Date() });
      return r;
    },
    async heartbeat(ids) {
      calls.heartbeats++;
      for (const id of ids) byId.get(id)!.heartbeatAt = new Date();
    },
    cancelRequested: async (ids) => ids.filter((id) => byId.get(id)?.cancel),
    staleRuns: async (olderThan) => [...byId.values()].filter((r) => r.status === 'RUNNING' && (!r.heartbeatAt || r.heartbeatAt < olderThan)),
    async markFailed(id, reason) {
      const r = byId.get(id)!;
      if (r.status !== 'RUNNING') return false;
      Object.assign(r, { status: 'FAILED', reason });
      return true;
    },
  };
  return { store, row: (id: string) => byId.get(id)!, add: (r: Row) => byId.set(r.id, r), calls };
}

const queued = (id: string): Row => ({ id, status: 'QUEUED', workerId: null, heartbeatAt: null, cancel: false, reason: null });
const silent = { warn: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;
const base = { name: 'run', log: silent, concurrency: 2, staleAfterMs: 20_000, staleReason: 'The worker running it stopped', interruptedReason: 'Interrupted' };

/** An execute that runs until aborted, then ends the row as the domain would. */
function untilAborted(m: ReturnType<typeof memoryStore>, executed: string[] = []) {
  return async (run: Row, signal: AbortSignal) => {
    executed.push(run.id);
    if (!signal.aborted) await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
    Object.assign(m.row(run.id), { status: 'FAILED', reason: stoppedByServer(signal) ? 'Interrupted' : 'Cancelled' });
  };
}

describe('the run kit', () => {
  it('runs a run once when two kits on one store claim it together', async () => {
    const m = memoryStore([queued('r1')]);
    const executed: string[] = [];
    const execute = async (run: Row) => {
      executed.push(run.id);
      run.status = 'DONE';
    };
    const a = createRunKit({ ...base, store: m.store, execute });
    const b = createRunKit({ ...base, store: m.store, execute });
    expect(a.workerId).not.toBe(b.workerId);
    await Promise.all([a.run('r1'), b.run('r1'), a.run('r1')]);
    expect(executed).toEqual(['r1']);
    expect(m.row('r1').status).toBe('DONE');
  });

  it('beats while a run runs, and stops beating when none does', async () => {
    const m = memoryStore([queued('r1')]);
    let release!: () => void;
    const kit = createRunKit({
      ...base,
      heartbeatMs: 10,
      store: m.store,
      execute: () =>
        new Promise<void>((r) => {
          release = r;
        }),
    });
    const run = kit.run('r1');
    await new Promise((r) => setTimeout(r, 80));
    expect(m.calls.heartbeats).toBeGreaterThanOrEqual(3);
    expect(kit.isLocal('r1')).toBe(true);
    release();
    await run;
    const after = m.calls.heartbeats;
    await new Promise((r) => setTimeout(r, 50));
    expect(m.calls.heartbeats).toBe(after);
    expect(kit.isLocal('r1')).toBe(false);
  });

  it('aborts a run cancelled through its row (from any process) or locally', async () => {
    const m = memoryStore([queued('r1'), queued('r2')]);
    const kit = createRunKit({ ...base, heartbeatMs: 10, store: m.store, execute: untilAborted(m) });
    const one = kit.run('r1');
    const two = kit.run('r2');
    await new Promise((r) => setTimeout(r, 20));
    m.row('r1').cancel = true;
    await one;
    expect(m.row('r1')).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
    kit.cancel('r2');
    await two;
    expect(m.row('r2')).toMatchObject({ status: 'FAILED', reason: 'Cancelled' });
  });

  it('recovery fails a run whose worker stopped beating, never one this process runs', async () => {
    const m = memoryStore([queued('mine'), { ...queued('dead'), status: 'RUNNING', workerId: 'gone:1:x', heartbeatAt: new Date(Date.now() - 60_000) }]);
    const kit = createRunKit({ ...base, staleAfterMs: 0, heartbeatMs: 60_000, store: m.store, execute: untilAborted(m) });
    const mine = kit.run('mine');
    await new Promise((r) => setTimeout(r, 5));
    await kit.recover();
    expect(m.row('dead')).toMatchObject({ status: 'FAILED', reason: 'The worker running it stopped' });
    expect(m.row('mine').status).toBe('RUNNING');
    kit.cancel('mine');
    await mine;
  });

  it('leaves a run of another host to that host until its longer wait is over', async () => {
    const other = { ...queued('other'), status: 'RUNNING' as const, workerId: 'elsewhere:1:x', heartbeatAt: new Date(Date.now() - 30_000) };
    const here = { ...queued('here'), status: 'RUNNING' as const, workerId: `${os.hostname()}:1:x`, heartbeatAt: new Date(Date.now() - 30_000) };
    const m = memoryStore([other, here]);
    const kit = createRunKit({ ...base, otherHostStaleAfterMs: 60_000, store: m.store, execute: async () => undefined });
    await kit.recover();
    expect(m.row('here').status).toBe('FAILED');
    expect(m.row('other').status).toBe('RUNNING');
  });

  it('start recovers now and then on a timer, until the stop', async () => {
    const dead = (id: string): Row => ({ ...queued(id), status: 'RUNNING', workerId: 'gone:1:x', heartbeatAt: new Date(0) });
    const m = memoryStore([dead('before')]);
    const kit = createRunKit({ ...base, store: m.store, execute: async () => undefined });
    await kit.start(10);
    expect(m.row('before').status).toBe('FAILED');
    m.add(dead('later'));
    await new Promise((r) => setTimeout(r, 60));
    expect(m.row('later')).toMatchObject({ status: 'FAILED', reason: 'The worker running it stopped' });
    await kit.stop(100);
    m.add(dead('after the stop'));
    await new Promise((r) => setTimeout(r, 60));
    expect(m.row('after the stop').status).toBe('RUNNING');
  });

  it('stop ends the runs within the time: aborted ones end themselves, a hung one is failed as interrupted', async () => {
    const m = memoryStore([queued('polite'), queued('hung')]);
    const kit = createRunKit({
      ...base,
      store: m.store,
      execute: (run, signal) => (run.id === 'hung' ? new Promise<void>(() => undefined) : untilAborted(m)(run, signal)),
    });
    void kit.run('polite');
    void kit.run('hung');
    await new Promise((r) => setTimeout(r, 5));
    const started = Date.now();
    await kit.stop(200);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(m.row('polite')).toMatchObject({ status: 'FAILED', reason: 'Interrupted' });
    expect(m.row('hung')).toMatchObject({ status: 'FAILED', reason: 'Interrupted' });
  });

  it('starts nothing once stopping, and at most `concurrency` runs through runSoon', async () => {
    const m = memoryStore([queued('a'), queued('b'), queued('c'), queued('d')]);
    const executed: string[] = [];
    const kit = createRunKit({ ...base, store: m.store, execute: untilAborted(m, executed) });
    kit.runSoon('a');
    await new Promise((r) => setTimeout(r, 5));
    kit.runSoon('b');
    await new Promise((r) => setTimeout(r, 5));
    kit.runSoon('c'); // both slots taken
    await new Promise((r) => setTimeout(r, 5));
    expect(executed).toEqual(['a', 'b']);
    await kit.stop(1000);
    kit.runSoon('d');
    await new Promise((r) => setTimeout(r, 5));
    expect(m.row('c').status).toBe('QUEUED');
    expect(m.row('d').status).toBe('QUEUED');
  });

  it('a run runSoon took here: its durable job claims nothing again', async () => {
    const m = memoryStore([queued('r1')]);
    let claims = 0;
    const store: RunKitStore<Row, StaleRun> = {
      ...m.store,
      claim: (id, workerId) => {
        claims++;
        return m.store.claim(id, workerId);
      },
    };
    const executed: string[] = [];
    const kit = createRunKit({ ...base, store, execute: untilAborted(m, executed) });
    expect(kit.runSoon('r1')).toBe(true);
    await kit.run('r1'); // the job: answers once the local claim took it
    expect(claims).toBe(1);
    await until(
      async () => executed.length,
      (n) => n === 1,
      'the run to execute',
      5000,
      5,
    );
    await kit.stop(1000);
    expect(m.row('r1').status).toBe('FAILED');
  });

  it('the durable job claims a run itself when the local start could not claim it', async () => {
    const m = memoryStore([queued('r1')]);
    let calls = 0;
    const store: RunKitStore<Row, StaleRun> = {
      ...m.store,
      claim: async (id, workerId) => {
        if (calls++ === 0) throw new Error('connection lost');
        return m.store.claim(id, workerId);
      },
    };
    const executed: string[] = [];
    const kit = createRunKit({ ...base, store, execute: untilAborted(m, executed) });
    kit.runSoon('r1');
    const job = kit.run('r1');
    await until(
      async () => executed.length,
      (n) => n === 1,
      'the run to execute',
      5000,
      5,
    );
    expect(calls).toBe(2);
    await kit.stop(1000);
    await job;
  });

  it('a slot reserved as a run is queued: it runs what the request claimed, holds its place until started or released, and none is given once stopping', async () => {
    const m = memoryStore([]);
    const executed: string[] = [];
    const kit = createRunKit({ ...base, store: m.store, execute: untilAborted(m, executed) });
    const first = kit.reserve()!;
    const second = kit.reserve()!;
    expect(kit.reserve()).toBeUndefined(); // both slots held while their requests write
    second.release(); // its request was refused
    const third = kit.reserve()!;
    expect(third.workerId).toBe(kit.workerId);

    // the domain wrote the row claimed by this worker: the slot runs it as it is, no claim
    const claimed: Row = { ...queued('r1'), status: 'RUNNING', workerId: first.workerId, heartbeatAt: new Date() };
    m.add(claimed);
    first.start('r1', claimed);
    first.release(); // no-op once started
    expect(kit.reserve()).toBeUndefined();
    await until(
      async () => executed,
      (e) => e.length === 1,
      'the run to execute',
      5000,
      5,
    );
    expect(kit.isLocal('r1')).toBe(true);
    kit.cancel('r1');
    await until(
      async () => m.row('r1').status,
      (st) => st === 'FAILED',
      'the cancel to end it',
      5000,
      5,
    );
    expect(m.row('r1').reason).toBe('Cancelled');

    third.release();
    await kit.stop(1000);
    expect(kit.reserve()).toBeUndefined();
  });

  it('a slot started once the server is stopping runs nothing but the stop: its run ends interrupted', async () => {
    const m = memoryStore([]);
    const kit = createRunKit({ ...base, store: m.store, execute: untilAborted(m) });
    const slot = kit.reserve()!;
    const stopping = kit.stop(5000); // waits for the slot's request
    const claimed: Row = { ...queued('r1'), status: 'RUNNING', workerId: slot.workerId, heartbeatAt: new Date() };
    m.add(claimed);
    slot.start('r1', claimed);
    await stopping;
    expect(m.row('r1')).toMatchObject({ status: 'FAILED', reason: 'Interrupted' });
  });

  it('a cancel the claimed row already carries aborts the run before it executes', async () => {
    const m = memoryStore([{ ...queued('r1'), cancel: true }]);
    const seen: boolean[] = [];
    const kit = createRunKit({
      ...base,
      store: { ...m.store, cancelRequested: undefined, cancelledAtClaim: (run) => run.cancel },
      execute: async (_run, signal) => void seen.push(signal.aborted),
    });
    await kit.run('r1');
    expect(seen).toEqual([true]);
  });

  it('kits sharing a pool share the worker id and the stop', async () => {
    const m = memoryStore([queued('a'), queued('b')]);
    const pool = createRunPool();
    const first = createRunKit({ ...base, pool, lateOnStop: 'leave', store: m.store, execute: untilAborted(m) });
    const second = createRunKit({ ...base, pool, store: m.store, execute: untilAborted(m) });
    expect(first.workerId).toBe(second.workerId);
    const runs = [first.run('a'), second.run('b')];
    await new Promise((r) => setTimeout(r, 5));
    await first.stop(1000);
    await Promise.all(runs);
    expect([m.row('a').reason, m.row('b').reason]).toEqual(['Interrupted', 'Interrupted']);
  });
});
