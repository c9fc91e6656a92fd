import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { startSmtp, type SmtpStandIn } from '@gantry/test-support';
import { openTestDatabase } from '../../test/helpers.js';
import type { Database } from './db.js';
import { startJobs, type Jobs } from './jobs.js';
import { createMailer } from './mail.js';

const log = { warn: () => undefined, error: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;
/** Far longer than any wait below: a job handled within those was not found by a poll. */
const SLOW_POLL_SECONDS = 60;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Resolves with the time a job took from its send to its handler, or rejects after `ms`. */
const handledWithin = (handled: Promise<number>, ms: number) =>
  Promise.race([handled, sleep(ms).then(() => Promise.reject(new Error(`not handled within ${ms} ms`)))]);

describe('jobs', () => {
  let database: Database & { drop(): Promise<void> };
  const started: Jobs[] = [];
  const start = async (o: { runWorkers: boolean; pollingIntervalSeconds: number }) => {
    const jobs = await startJobs({ executeSql: database.executeSql, concurrency: 1, log, ...o });
    started.push(jobs);
    return jobs;
  };
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    for (const jobs of started) await jobs.stop();
    await database.drop();
  });

  /** A worker of `queue` whose handler resolves with the ms since `sentAt()`. */
  const worker = async (jobs: Jobs, queue: string, sentAt: () => number) => {
    let done!: (ms: number) => void;
    const handled = new Promise<number>((r) => (done = r));
    await jobs.work(queue, async () => done(Date.now() - sentAt()));
    await sleep(500); // the worker's first poll (at its start) is over: only a wake or the next poll finds a job now
    return { handled }; // not the promise itself: awaiting this must not wait for the job
  };

  it('hands a job sent by this process to its own worker at once, not at the next poll', async () => {
    const jobs = await start({ runWorkers: true, pollingIntervalSeconds: SLOW_POLL_SECONDS });
    let sentAt = 0;
    const { handled } = await worker(jobs, 'test.wake', () => sentAt);
    sentAt = Date.now();
    await jobs.send('test.wake', { n: 1 });
    expect(await handledWithin(handled, 10_000)).toBeLessThan(10_000);
  });

  it('finds a job another process sent by polling (nothing wakes the worker then)', async () => {
    const jobs = await start({ runWorkers: true, pollingIntervalSeconds: 1 });
    const other = await start({ runWorkers: false, pollingIntervalSeconds: 1 });
    let sentAt = 0;
    const { handled } = await worker(jobs, 'test.other', () => sentAt);
    sentAt = Date.now();
    await other.send('test.other', { n: 1 });
    expect(await handledWithin(handled, 15_000)).toBeLessThan(15_000);
  });

  describe('mail', () => {
    let smtp: SmtpStandIn;
    beforeAll(async () => {
      smtp = await startSmtp();
    });
    afterAll(() => smtp.close());

    it("delivers a mail this process queued at once, not at the queue's next poll", async () => {
      const jobs = await start({ runWorkers: true, pollingIntervalSeconds: SLOW_POLL_SECONDS });
      const mailer = await createMailer({ db: database.db, jobs, smtpUrl: smtp.url, from: 'gantry@example.com', log });
      await sleep(500); // past the worker's first poll
      await mailer.send({ to: 'at-once@example.com', subject: 'At once', text: 'Sent at once' });
      const mail = await smtp.waitFor('at-once@example.com', 10_000);
      expect(mail.subject).toBe('At once');
    });
  });
});
