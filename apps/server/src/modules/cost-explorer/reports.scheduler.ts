import type { FastifyBaseLogger } from 'fastify';
import { createTicker, type TickerTimers } from '../../platform/ticker.js';
import { LOOKBACK_MS, type CostExplorerService } from './cost-explorer.service.js';
import type { ReportRow } from './cost-explorer.store.js';
import { lastSendAt } from './report-periods.js';

/**
 * The reports' durable schedule. Every worker ticks (once a minute); a report whose send time
 * (Monday or the 1st, 00:00 UTC) has come since it was created is claimed by inserting its send
 * with a unique key, so exactly one worker mails it however many tick. A send left unsent past its
 * lease — its worker died mid-send, or it failed — is taken over the same way, a Send now as well as a
 * scheduled one, until it is older than the lookback.
 */
export function createReportsScheduler(deps: {
  reports: Pick<CostExplorerService, 'allReports' | 'sendScheduled' | 'unsentSends'>;
  now?: () => Date;
  log?: Pick<FastifyBaseLogger, 'error'>;
  timers?: TickerTimers;
}) {
  const now = deps.now ?? (() => new Date());
  const send = async (r: ReportRow, at: Date, trigger: 'SCHEDULE' | 'MANUAL') => {
    try {
      await deps.reports.sendScheduled(r, at, trigger);
    } catch (err) {
      deps.log?.error({ err, reportId: r.id, trigger }, 'cost report mailing failed');
    }
  };
  const scheduler = {
    /** One pass over every report at the clock's time, then over the unsent sends; a failing report does not hold up the others. */
    async tick() {
      const t = now();
      for (const r of await deps.reports.allReports()) {
        const due = lastSendAt(r.granularity, t);
        if (due.getTime() <= Math.max(r.createdAt.getTime(), t.getTime() - LOOKBACK_MS)) continue;
        await send(r, due, 'SCHEDULE');
      }
      for (const u of await deps.reports.unsentSends(new Date(t.getTime() - LOOKBACK_MS))) await send(u.report, u.scheduledFor, u.trigger);
    },
    start: (everyMs = 60_000) => ticker.start(everyMs),
    stop: () => ticker.stop(),
  };
  const ticker = createTicker({ name: 'cost reports', tick: () => scheduler.tick(), log: deps.log, timers: deps.timers });
  return scheduler;
}
