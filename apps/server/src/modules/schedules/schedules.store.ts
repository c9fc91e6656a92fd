import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db.js';
import { schedules } from './schedules.tables.js';

export type ScheduleRow = typeof schedules.$inferSelect;
type Values = Omit<typeof schedules.$inferInsert, 'id' | 'projectId' | 'createdAt' | 'updatedAt'>;

export function createSchedulesStore(db: Db) {
  const scoped = (projectId: string, id: string) => and(eq(schedules.projectId, projectId), eq(schedules.id, id));
  return {
    list: (projectId: string) =>
      db
        .select()
        .from(schedules)
        .where(eq(schedules.projectId, projectId))
        .orderBy(sql`lower(${schedules.name})`),
    byId: async (projectId: string, id: string) => (await db.select().from(schedules).where(scoped(projectId, id)))[0],
    insert: async (projectId: string, values: Values, tx: Tx = db) =>
      (
        await tx
          .insert(schedules)
          .values({ projectId, ...values })
          .returning()
      )[0]!,
    update: async (projectId: string, id: string, values: Values) =>
      (
        await db
          .update(schedules)
          .set({ ...values, updatedAt: new Date() })
          .where(scoped(projectId, id))
          .returning()
      )[0],
    setState: async (projectId: string, id: string, state: 'ENABLED' | 'DISABLED') =>
      (await db.update(schedules).set({ state, updatedAt: new Date() }).where(scoped(projectId, id)).returning())[0],
    delete: async (projectId: string, id: string) => (await db.delete(schedules).where(scoped(projectId, id)).returning({ id: schedules.id })).length > 0,
  };
}
export type SchedulesStore = ReturnType<typeof createSchedulesStore>;
