import type { FastifyBaseLogger } from 'fastify';
import { createTicker, type TickerTimers } from '../../platform/ticker.js';
import type { StateAction, StateChange } from '../../integrations/aws-resources/index.js';
import type { ScheduleRow } from './schedules.store.js';
import type { ScheduleRunsStore } from './schedule-runs.store.js';
import { lastFireAtOrBefore } from './cron.js';

/** A fire missed by more than this (every worker down) is skipped rather than run late. */
export const LOOKBACK_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;

export type Execute = (schedule: ScheduleRow, action: StateAction, only?: 'rds') => Promise<StateChange>;

/**
 * The saving schedules' durable cron. Every worker ticks (twice a minute); for each enabled
 * schedule the newest start/stop time that is due (after its last change, within LOOKBACK_MS)
 * is claimed by inserting its run with a unique key, so exactly one worker runs it however many
 * tick. While a schedule sleeps, its RDS instances are checked once an hour and stopped again
 * (AWS starts a stopped DB instance by itself after 7 days).
 */
export function createScheduler(deps: {
  runs: ScheduleRunsStore;
  execute: Execute;
  now?: () => Date;
  log?: Pick<FastifyBaseLogger, 'error'>;
  timers?: TickerTimers;
}) {
  const { runs, execute } = deps;
  const now = deps.now ?? (() => new Date());

  /** Claims and runs one start/stop; false when another worker (or an earlier tick) has it. */
  async function fire(s: ScheduleRow, action: StateAction, trigger: 'SCHEDULE' | 'MANUAL' | 'RDS_RESTOP', scheduledFor: Date) {
    const run = await runs.claim({ scheduleId: s.id, action, trigger, scheduledFor, startedAt: now() });
    if (!run) return null;
    try {
      const resources = await execute(s, action, trigger === 'RDS_RESTOP' ? 'rds' : undefined);
      await runs.finish(run.id, { status: 'SUCCEEDED', resources, error: null, finishedAt: now() });
      return resources;
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      await runs.finish(run.id, { status: 'FAILED', resources: { ec2: [], asg: [], rds: [] }, error, finishedAt: now() });
      throw err;
    }
  }

  async function tickOne(s: ScheduleRow, t: Date) {
    const since = Math.max(t.getTime() - LOOKBACK_MS, s.updatedAt.getTime());
    const due = (['start', 'stop'] as const)
      .map((action) => ({ action, at: lastFireAtOrBefore(action === 'start' ? s.startExpression : s.stopExpression, t) }))
      .filter((d): d is { action: StateAction; at: Date } => !!d.at && d.at.getTime() > since)
      .sort((a, b) => a.at.getTime() - b.at.getTime());
    for (const d of due) await fire(s, d.action, 'SCHEDULE', d.at);
    // from the hour after a finished stop on: the stop itself is still settling before that
    const hour = new Date(Math.floor(t.getTime() / HOUR_MS) * HOUR_MS);
    const last = await runs.lastScheduled(s.id);
    if (last?.action === 'stop' && last.status !== 'RUNNING' && last.scheduledFor < hour) await fire(s, 'stop', 'RDS_RESTOP', hour);
  }

  const scheduler = {
    fire,
    /** One pass over the enabled schedules at the clock's time; a failing schedule does not hold up the others. */
    async tick() {
      const t = now();
      for (const s of await runs.enabledSchedules()) {
        try {
          await tickOne(s, t);
        } catch (err) {
          deps.log?.error({ err, scheduleId: s.id }, 'saving schedule run failed');
        }
      }
    },
    start: (everyMs = 30_000) => ticker.start(everyMs),
    stop: () => ticker.stop(),
  };
  const ticker = createTicker({ name: 'saving schedules', tick: () => scheduler.tick(), log: deps.log, timers: deps.timers });
  return scheduler;
}
export type Scheduler = ReturnType<typeof createScheduler>;
