import { and, asc, desc, eq, gte, inArray, lt } from 'drizzle-orm';
import type { CostData } from '@gantry/contracts';
import type { Db } from '../../platform/db.js';
import { costDashboards, costReports, costReportSends } from './cost-explorer.tables.js';

export type ReportRow = typeof costReports.$inferSelect;
export type ReportValues = Pick<typeof costReports.$inferInsert, 'reportName' | 'awsAccountIds' | 'regions' | 'emails' | 'granularity' | 'costAllocationTag'>;
type SendClaim = Pick<typeof costReportSends.$inferInsert, 'reportId' | 'trigger' | 'scheduledFor' | 'startedAt'>;

type Claim = { id: string; reportId: string; startedAt: Date };
export type SendRow = typeof costReportSends.$inferSelect;
/** A mailing not sent yet whose lease has expired: its worker died mid-send (RUNNING) or it failed (FAILED). */
const unsentBefore = (leaseExpiredBefore: Date) =>
  and(inArray(costReportSends.status, ['RUNNING', 'FAILED']), lt(costReportSends.startedAt, leaseExpiredBefore));
const heldBy = (send: Claim) => and(eq(costReportSends.id, send.id), eq(costReportSends.startedAt, send.startedAt), eq(costReportSends.status, 'RUNNING'));

/** The cached dashboards, the reports and their mailings. */
export function createCostStore(db: Db) {
  const ofProject = (projectId: string, id: string) => and(eq(costReports.projectId, projectId), eq(costReports.id, id));
  return {
    dashboard: async (projectId: string) => (await db.select().from(costDashboards).where(eq(costDashboards.projectId, projectId)))[0],
    saveDashboard: async (projectId: string, data: CostData, fetchedAt: Date) =>
      (
        await db
          .insert(costDashboards)
          .values({ projectId, data, fetchedAt })
          .onConflictDoUpdate({ target: costDashboards.projectId, set: { data, fetchedAt } })
          .returning()
      )[0]!,

    reports: (projectId: string) => db.select().from(costReports).where(eq(costReports.projectId, projectId)).orderBy(asc(costReports.createdAt)),
    report: async (projectId: string, id: string) => (await db.select().from(costReports).where(ofProject(projectId, id)))[0],
    insertReport: async (projectId: string, values: ReportValues, at: Date) =>
      (
        await db
          .insert(costReports)
          .values({ projectId, ...values, createdAt: at, updatedAt: at })
          .returning()
      )[0]!,
    updateReport: async (projectId: string, id: string, values: ReportValues, at: Date) =>
      (
        await db
          .update(costReports)
          .set({ ...values, updatedAt: at })
          .where(ofProject(projectId, id))
          .returning()
      )[0],
    deleteReport: async (projectId: string, id: string) =>
      (await db.delete(costReports).where(ofProject(projectId, id)).returning({ id: costReports.id })).length > 0,
    /** Every report of every project: what the scheduler looks at each tick. */
    allReports: () => db.select().from(costReports),

    /**
     * Inserts the mailing unless one with the same key exists: the row when this caller won the claim, else undefined.
     * An existing one not sent and claimed before `leaseExpiredBefore` (its worker died mid-send, or it failed) is taken over.
     */
    claimSend: async (claim: SendClaim, leaseExpiredBefore: Date) =>
      (
        await db
          .insert(costReportSends)
          .values(claim)
          .onConflictDoUpdate({
            target: [costReportSends.reportId, costReportSends.trigger, costReportSends.scheduledFor],
            set: { startedAt: claim.startedAt, status: 'RUNNING', error: null },
            setWhere: unsentBefore(leaseExpiredBefore),
          })
          .returning()
      )[0],
    /**
     * Send now's claim, one per period however often it is clicked: the report's newest send asked for since `since` (the
     * period's send time) and not sent yet is taken over (a failed one at once: its retry is this send; one left RUNNING
     * once its lease expired), else a new MANUAL send at `at` is inserted. 'busy' while a send of the period is being made.
     */
    claimSendNow: (reportId: string, o: { since: Date; at: Date; leaseExpiredBefore: Date }) =>
      db.transaction(async (tx): Promise<SendRow | 'busy'> => {
        // one Send now of a report at a time decides (two clicks at once would both insert)
        await tx.select({ id: costReports.id }).from(costReports).where(eq(costReports.id, reportId)).for('update');
        const [pending] = await tx
          .select()
          .from(costReportSends)
          .where(
            and(eq(costReportSends.reportId, reportId), inArray(costReportSends.status, ['RUNNING', 'FAILED']), gte(costReportSends.scheduledFor, o.since)),
          )
          .orderBy(desc(costReportSends.scheduledFor))
          .limit(1);
        if (pending) {
          if (pending.status === 'RUNNING' && pending.startedAt >= o.leaseExpiredBefore) return 'busy';
          // the tick may take it over at the same moment: whoever updates it first holds it
          const [taken] = await tx
            .update(costReportSends)
            .set({ startedAt: o.at, status: 'RUNNING', error: null })
            .where(and(eq(costReportSends.id, pending.id), eq(costReportSends.status, pending.status), eq(costReportSends.startedAt, pending.startedAt)))
            .returning();
          return taken ?? 'busy';
        }
        const [inserted] = await tx
          .insert(costReportSends)
          .values({ reportId, trigger: 'MANUAL', scheduledFor: o.at, startedAt: o.at })
          .onConflictDoNothing()
          .returning();
        return inserted ?? 'busy';
      }),
    /** Each report's newest send, by its latest attempt. */
    lastSends: async (reportIds: string[]) =>
      reportIds.length
        ? await db
            .selectDistinctOn([costReportSends.reportId])
            .from(costReportSends)
            .where(inArray(costReportSends.reportId, reportIds))
            .orderBy(costReportSends.reportId, desc(costReportSends.startedAt))
        : [],
    /** The mailings asked for since `since` (a schedule's send time, a Send now's click) still unsent past their lease, with their report. */
    unsentSends: async (leaseExpiredBefore: Date, since: Date) =>
      await db
        .select({ report: costReports, trigger: costReportSends.trigger, scheduledFor: costReportSends.scheduledFor })
        .from(costReportSends)
        .innerJoin(costReports, eq(costReports.id, costReportSends.reportId))
        .where(and(unsentBefore(leaseExpiredBefore), gte(costReportSends.scheduledFor, since))),
    /** Whether this claim is still the caller's (not taken over after its lease expired). */
    holds: async (send: Claim) => (await db.select({ id: costReportSends.id }).from(costReportSends).where(heldBy(send))).length > 0,
    /** Ends the mailing; false (nothing written) when the claim was taken over meanwhile. */
    finishSend: async (send: Claim, result: { status: 'SENT' | 'FAILED'; error: string | null; mailIds?: string[] }, at: Date) => {
      const done = await db.update(costReportSends).set(result).where(heldBy(send)).returning({ id: costReportSends.id });
      if (!done.length) return false;
      if (result.status === 'SENT') await db.update(costReports).set({ lastSentAt: at }).where(eq(costReports.id, send.reportId));
      return true;
    },
  };
}
export type CostStore = ReturnType<typeof createCostStore>;
