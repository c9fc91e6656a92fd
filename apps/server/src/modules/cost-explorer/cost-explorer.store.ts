import { and, asc, eq } from 'drizzle-orm';
import type { CostData } from '@gantry/contracts';
import type { Db } from '../../platform/db.js';
import { costDashboards, costReports, costReportSends } from './cost-explorer.tables.js';

export type ReportRow = typeof costReports.$inferSelect;
export type ReportValues = Pick<typeof costReports.$inferInsert, 'reportName' | 'awsAccountIds' | 'regions' | 'emails' | 'granularity' | 'costAllocationTag'>;
type SendClaim = Pick<typeof costReportSends.$inferInsert, 'reportId' | 'trigger' | 'scheduledFor' | 'startedAt'>;

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

    /** Inserts the mailing unless one with the same key exists: the row when this caller won the claim, else undefined. */
    claimSend: async (claim: SendClaim) => (await db.insert(costReportSends).values(claim).onConflictDoNothing().returning())[0],
    finishSend: async (send: { id: string; reportId: string }, result: { status: 'SENT' | 'FAILED'; error: string | null }, at: Date) => {
      await db.update(costReportSends).set(result).where(eq(costReportSends.id, send.id));
      if (result.status === 'SENT') await db.update(costReports).set({ lastSentAt: at }).where(eq(costReports.id, send.reportId));
    },
  };
}
export type CostStore = ReturnType<typeof createCostStore>;
