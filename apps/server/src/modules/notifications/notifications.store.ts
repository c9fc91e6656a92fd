import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { notifications } from './notifications.tables.js';

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
        .where(and(eq(notifications.userId, userId), eq(notifications.projectId, projectId), eq(notifications.isRead, false))),
  };
}
export type NotificationsStore = ReturnType<typeof createNotificationsStore>;
