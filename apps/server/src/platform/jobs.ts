import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { ExecuteSql } from './db.js';

export type JobHandler<T> = (data: T, job: { id: string }) => Promise<void>;

export interface Jobs {
  send<T extends object>(queue: string, data: T, options?: PgBoss.SendOptions): Promise<string | null>;
  /** Registers a worker; only processes whose role runs workers call handlers. */
  work<T extends object>(queue: string, handler: JobHandler<T>): Promise<void>;
  /** First step of a server stop: fetch no more jobs (the ones being handled run on). */
  stopWorking(): Promise<void>;
  /** Waits (bounded) for the jobs being handled, then stops pg-boss; any still active are failed by it. */
  stop(): Promise<void>;
}

/**
 * pg-boss on the same database (PGlite through executeSql, or PostgreSQL): durable queues with retries.
 * A job sent by this process wakes this process's workers of its queue at once; polling finds the rest
 * (retries, jobs of other processes). PGlite has no other process, so it polls seldom: its one
 * connection would otherwise queue every request behind the polls.
 */
export async function startJobs(opts: {
  executeSql: ExecuteSql;
  runWorkers: boolean;
  concurrency: number;
  log: FastifyBaseLogger;
  /** Seconds between polls of each worker (0.5 on PostgreSQL, where other processes send jobs). */
  pollingIntervalSeconds?: number;
}): Promise<Jobs> {
  const boss = new PgBoss({ db: { executeSql: opts.executeSql } as any, schedule: opts.runWorkers, supervise: opts.runWorkers });
  boss.on('error', (err) => opts.log.error({ err }, 'job queue error'));
  await boss.start();
  const queues = new Set<string>();
  const worked = new Set<string>();
  const workers = new Map<string, string[]>();
  const ensureQueue = async (name: string) => {
    if (queues.has(name)) return;
    await boss.createQueue(name, { name, retryLimit: 3, retryDelay: 5, retryBackoff: true });
    queues.add(name);
  };
  return {
    async send(queue, data, options) {
      await ensureQueue(queue);
      const id = await boss.send(queue, data, options ?? {});
      if (!options?.startAfter) for (const worker of workers.get(queue) ?? []) boss.notifyWorker(worker);
      return id;
    },
    async work(queue, handler) {
      await ensureQueue(queue);
      if (!opts.runWorkers) return;
      worked.add(queue);
      const worker = await boss.work(queue, { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5, batchSize: 1 }, async (jobs) => {
        for (const job of jobs) await handler(job.data as any, { id: job.id });
      });
      workers.set(queue, [...(workers.get(queue) ?? []), worker]);
    },
    async stopWorking() {
      for (const queue of worked) await boss.offWork(queue);
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 5000, wait: true });
    },
  };
}
