import { and, asc, desc, eq, not } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { notifications, notificationIntegrations, notificationOptOuts } from './notifications.tables.js';

export type IntegrationRow = typeof notificationIntegrations.$inferSelect;

export function createNotificationsStore(db: Db) {
  return {
    insertMany: (rows: (typeof notifications.$inferInsert)[]) => (rows.length ? db.insert(notifications).values(rows) : Promise.resolve()),
    forUser: (userId: string, limit: number) =>
      db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt)).limit(limit),
    markRead: async (userId: string, projectId: string, id: string) =>
      (
        await db
          .update(notifications)
          .set({ isRead: true })
          .where(and(eq(notifications.userId, userId), eq(notifications.projectId, projectId), eq(notifications.id, id)))
          .returning({ id: notifications.id })
      ).length > 0,
    markAllRead: (userId: string, projectId: string) =>
      db
        .update(notifications)
        .set({ isRead: true })
        .where(and(eq(notifications.userId, userId), eq(notifications.projectId, projectId), not(notifications.isRead))),

    integrations: (projectId: string) =>
      db.select().from(notificationIntegrations).where(eq(notificationIntegrations.projectId, projectId)).orderBy(asc(notificationIntegrations.createdAt)),
    integration: async (projectId: string, type: IntegrationRow['type']) =>
      (
        await db
          .select()
          .from(notificationIntegrations)
          .where(and(eq(notificationIntegrations.projectId, projectId), eq(notificationIntegrations.type, type)))
      )[0],
    /** Answers undefined when the project already has one of the type (the unique index decides, not a read before). */
    insertIntegration: async (values: typeof notificationIntegrations.$inferInsert) =>
      (await db.insert(notificationIntegrations).values(values).onConflictDoNothing().returning())[0],
    deleteIntegration: async (projectId: string, type: IntegrationRow['type']) =>
      (
        await db
          .delete(notificationIntegrations)
          .where(and(eq(notificationIntegrations.projectId, projectId), eq(notificationIntegrations.type, type)))
          .returning({ id: notificationIntegrations.id })
      ).length > 0,

    optedOut: async (projectId: string) =>
      new Set(
        (await db.select({ userId: notificationOptOuts.userId }).from(notificationOptOuts).where(eq(notificationOptOuts.projectId, projectId))).map(
          (r) => r.userId,
        ),
      ),
    optOut: (projectId: string, userId: string) => db.insert(notificationOptOuts).values({ projectId, userId }).onConflictDoNothing(),
    optIn: (projectId: string, userId: string) =>
      db.delete(notificationOptOuts).where(and(eq(notificationOptOuts.projectId, projectId), eq(notificationOptOuts.userId, userId))),
  };
}
export type NotificationsStore = ReturnType<typeof createNotificationsStore>;
