import { and, count, eq, getTableColumns, inArray, notInArray, sql } from 'drizzle-orm';
import { memoOf, tableNames, type Db, type Tx } from '../../platform/db.js';
import type { ReadCache } from '../../platform/read-cache.js';
import type { CloudAccountRef } from '../../platform/hooks.js';
import { stages, stageResources } from './stages.tables.js';

export type StageRow = typeof stages.$inferSelect;
export type ResourceRow = typeof stageResources.$inferSelect;
const NOT_DEPLOYED = ['NOT_DEPLOYED', 'DELETE_COMPLETE'];
/** A resource's outcome of a run, as written. */
export type ResourceOutcome = { id: string; isDeployed: boolean; status: string };

function accountMatches(account: CloudAccountRef) {
  if (account.provider === 'aws') return and(eq(stages.cloudProvider, 'aws'), eq(stages.awsAccountId, account.awsAccountId));
  if (account.provider === 'gcp') return and(eq(stages.cloudProvider, 'google'), eq(stages.gcpProjectId, account.gcpProjectId));
  return and(eq(stages.cloudProvider, 'azurerm'), eq(stages.tenantId, account.tenantId), eq(stages.subscriptionId, account.subscriptionId));
}

export function createStagesStore(db: Db, cache?: ReadCache) {
  return {
    list: (projectId: string) =>
      db
        .select()
        .from(stages)
        .where(eq(stages.projectId, projectId))
        .orderBy(sql`lower(${stages.name})`),
    byId: async (projectId: string, id: string) =>
      (
        await db
          .select()
          .from(stages)
          .where(and(eq(stages.projectId, projectId), eq(stages.id, id)))
      )[0],
    byName: async (projectId: string, name: string) =>
      (
        await db
          .select()
          .from(stages)
          .where(and(eq(stages.projectId, projectId), sql`lower(${stages.name}) = lower(${name})`))
      )[0],
    count: async (projectId: string) => Number((await db.select({ n: count() }).from(stages).where(eq(stages.projectId, projectId)))[0]!.n),
    insert: async (values: typeof stages.$inferInsert, tx: Tx = db) => (await tx.insert(stages).values(values).returning())[0]!,
    update: async (projectId: string, id: string, values: Partial<typeof stages.$inferInsert>) =>
      (
        await db
          .update(stages)
          .set({ ...values, updatedAt: new Date() })
          .where(and(eq(stages.projectId, projectId), eq(stages.id, id)))
          .returning()
      )[0],
    updateById: async (id: string, values: Partial<typeof stages.$inferInsert>, tx: Tx = db) =>
      (
        await tx
          .update(stages)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(stages.id, id))
          .returning()
      )[0],
    byIdAnyProject: async (id: string) => (await db.select().from(stages).where(eq(stages.id, id)))[0],
    /**
     * After a run, in one statement: the resources' new statuses (by id; one gone meanwhile is left out) and the
     * environment's values. Answers the environment as written with the resources it updated, or undefined when
     * the environment is gone.
     */
    updateAfterRun: async (stageId: string, resources: ResourceOutcome[], values: Partial<typeof stages.$inferInsert>, tx: Tx = db) => {
      const outcomes = resources.map((r) => ({ id: r.id, is_deployed: r.isDeployed, status: r.status }));
      const updated = tx.$with('updated_resources', {}).as(
        sql`update ${stageResources} r set is_deployed = v.is_deployed, status = v.status
          from jsonb_to_recordset(${JSON.stringify(outcomes)}::jsonb) as v(id uuid, is_deployed boolean, status text)
          where r.id = v.id and r.stage_id = ${stageId}
          returning r.name, r.status, r.is_deployed, r.created_at`,
      );
      const [row] = await tx
        .with(updated)
        .update(stages)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(stages.id, stageId))
        .returning({
          ...getTableColumns(stages),
          resources: sql<
            { name: string; status: string; isDeployed: boolean }[]
          >`(select coalesce(json_agg(json_build_object('name', u.name, 'status', u.status, 'isDeployed', u.is_deployed) order by u.created_at), '[]'::json) from updated_resources u)`,
        });
      return row as typeof row | undefined;
    },
    delete: (projectId: string, id: string) => db.delete(stages).where(and(eq(stages.projectId, projectId), eq(stages.id, id))),
    deployedNames: async (projectId: string) =>
      (
        await db
          .select({ name: stages.name })
          .from(stages)
          .where(and(eq(stages.projectId, projectId), notInArray(stages.status, NOT_DEPLOYED)))
      ).map((r) => r.name),
    resources: (stageId: string, tx: Tx = db) => tx.select().from(stageResources).where(eq(stageResources.stageId, stageId)).orderBy(stageResources.createdAt),
    resource: async (stageId: string, name: string) =>
      (
        await db
          .select()
          .from(stageResources)
          .where(and(eq(stageResources.stageId, stageId), eq(stageResources.name, name)))
      )[0],
    insertResource: async (values: typeof stageResources.$inferInsert, tx: Tx = db) => (await tx.insert(stageResources).values(values).returning())[0]!,
    updateResource: async (id: string, values: Partial<typeof stageResources.$inferInsert>, tx: Tx = db) =>
      (await tx.update(stageResources).set(values).where(eq(stageResources.id, id)).returning())[0]!,
    deleteResource: (id: string) => db.delete(stageResources).where(eq(stageResources.id, id)),
    /** Names of the environments that use a component. */
    stagesUsingComponent: async (componentId: string) => [
      ...new Set(
        (
          await db
            .select({ name: stages.name })
            .from(stageResources)
            .innerJoin(stages, eq(stages.id, stageResources.stageId))
            .where(eq(stageResources.componentId, componentId))
        ).map((r) => r.name),
      ),
    ],
    /** Names of the project's environments that deploy into a cloud account. */
    namesUsingCloudAccount: async (projectId: string, account: CloudAccountRef) =>
      (
        await db
          .select({ name: stages.name })
          .from(stages)
          .where(and(eq(stages.projectId, projectId), accountMatches(account)))
          .orderBy(sql`lower(${stages.name})`)
      ).map((r) => r.name),
    /** The tables countsFor reads. */
    countsForReads: tableNames([stages]),
    countsFor: memoOf(cache)(
      [stages],
      async (projectIds: string[]) =>
        new Map(
          projectIds.length
            ? (
                await db.select({ projectId: stages.projectId, n: count() }).from(stages).where(inArray(stages.projectId, projectIds)).groupBy(stages.projectId)
              ).map((r) => [r.projectId, Number(r.n)])
            : [],
        ),
    ),
  };
}
export type StagesStore = ReturnType<typeof createStagesStore>;
