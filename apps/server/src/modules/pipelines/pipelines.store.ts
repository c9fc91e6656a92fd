import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { memoOf, type Db, type Tx } from '../../platform/db.js';
import type { ReadCache } from '../../platform/read-cache.js';
import { pipelines } from './pipelines.tables.js';

export type PipelineRow = typeof pipelines.$inferSelect;

export function createPipelinesStore(db: Db, cache?: ReadCache) {
  // every trigger reads its pipeline before it asks the provider for the commit; pipelines change seldom
  const memo = memoOf(cache);
  return {
    /** Up to `limit` pipelines by name, after the name `after` (keyset on the project's unique name index). */
    page: (projectId: string, limit: number, after?: string) =>
      db
        .select()
        .from(pipelines)
        .where(and(eq(pipelines.projectId, projectId), after === undefined ? undefined : gt(pipelines.name, after)))
        .orderBy(asc(pipelines.name))
        .limit(limit),
    byId: memo(
      [pipelines],
      async (projectId: string, id: string) =>
        (
          await db
            .select()
            .from(pipelines)
            .where(and(eq(pipelines.projectId, projectId), eq(pipelines.id, id)))
        )[0],
    ),
    /** A pipeline by id alone, for webhooks (they carry no project). */
    byIdAnyProject: memo([pipelines], async (id: string) => (await db.select().from(pipelines).where(eq(pipelines.id, id)))[0]),
    byName: async (projectId: string, name: string) =>
      (
        await db
          .select()
          .from(pipelines)
          .where(and(eq(pipelines.projectId, projectId), eq(pipelines.name, name)))
      )[0],
    insert: async (values: typeof pipelines.$inferInsert, tx: Tx = db) => (await tx.insert(pipelines).values(values).returning())[0]!,
    update: async (projectId: string, id: string, values: Partial<typeof pipelines.$inferInsert>, tx: Tx = db) =>
      (
        await tx
          .update(pipelines)
          .set({ ...values, updatedAt: new Date() })
          .where(and(eq(pipelines.projectId, projectId), eq(pipelines.id, id)))
          .returning()
      )[0],
    delete: (projectId: string, id: string) => db.delete(pipelines).where(and(eq(pipelines.projectId, projectId), eq(pipelines.id, id))),
    namesUsingGitAccount: async (gitAccountId: string) =>
      (await db.select({ name: pipelines.name }).from(pipelines).where(eq(pipelines.gitAccountId, gitAccountId))).map((r) => r.name),
    count: async (projectId: string) =>
      Number(
        (
          await db
            .select({ n: sql<number>`count(*)` })
            .from(pipelines)
            .where(eq(pipelines.projectId, projectId))
        )[0]!.n,
      ),
  };
}
export type PipelinesStore = ReturnType<typeof createPipelinesStore>;
