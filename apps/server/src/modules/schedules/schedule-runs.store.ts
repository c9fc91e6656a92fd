import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { scheduleRuns, schedules } from './schedules.tables.js';

export type ScheduleRunRow = typeof scheduleRuns.$inferSelect;
type Claim = Pick<typeof scheduleRuns.$inferInsert, 'scheduleId' | 'action' | 'trigger' | 'scheduledFor' | 'startedAt'>;

export function createScheduleRunsStore(db: Db) {
  return {
    /** Inserts the run unless one with the same key exists: the row when this caller won the claim, else undefined. */
    claim: async (claim: Claim) => (await db.insert(scheduleRuns).values(claim).onConflictDoNothing().returning())[0],
    finish: (id: string, values: Pick<ScheduleRunRow, 'status' | 'resources' | 'error' | 'finishedAt'>) =>
      db.update(scheduleRuns).set(values).where(eq(scheduleRuns.id, id)),
    /** Newest first; re-stop checks that found nothing to stop are left out. */
    list: (scheduleId: string, limit = 50) =>
      db
        .select()
        .from(scheduleRuns)
        .where(
          and(
            eq(scheduleRuns.scheduleId, scheduleId),
            sql`not (${scheduleRuns.trigger} = 'RDS_RESTOP' and ${scheduleRuns.status} = 'SUCCEEDED' and jsonb_array_length(${scheduleRuns.resources}->'rds') = 0)`,
          ),
        )
        .orderBy(desc(scheduleRuns.startedAt))
        .limit(limit),
    /** The newest cron-fired run: a finished 'stop' means the schedule's resources should be asleep. */
    lastScheduled: async (scheduleId: string) =>
      (
        await db
          .select({ action: scheduleRuns.action, status: scheduleRuns.status, scheduledFor: scheduleRuns.scheduledFor })
          .from(scheduleRuns)
          .where(and(eq(scheduleRuns.scheduleId, scheduleId), eq(scheduleRuns.trigger, 'SCHEDULE')))
          .orderBy(desc(scheduleRuns.scheduledFor))
          .limit(1)
      )[0],
    /** Every enabled schedule of every project: what the scheduler looks at each tick. */
    enabledSchedules: () => db.select().from(schedules).where(eq(schedules.state, 'ENABLED')),
  };
}
export type ScheduleRunsStore = ReturnType<typeof createScheduleRunsStore>;
