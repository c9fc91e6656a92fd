import { and, asc, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db.js';
import { deployments, deploymentLogs, deploymentMinutes, deploymentPlans, removedStageDeployments, terraformStates } from './deployments.tables.js';

export type DeploymentRow = typeof deployments.$inferSelect;
export type PlanRow = typeof deploymentPlans.$inferSelect;

/** The first instant of the UTC month of a date: the key of the minutes counter. */
const monthOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e.code === '23505' || e.cause?.code === '23505';
};

export function createDeploymentsStore(db: Db) {
  return {
    sealedState: async (stageId: string) =>
      (await db.select({ sealed: terraformStates.sealed }).from(terraformStates).where(eq(terraformStates.stageId, stageId)))[0]?.sealed,
    putSealedState: async (stageId: string, sealed: string) => {
      await db
        .insert(terraformStates)
        .values({ stageId, sealed })
        .onConflictDoUpdate({ target: terraformStates.stageId, set: { sealed, updatedAt: new Date() } });
    },
    /** The state terraform's pg backend kept in `schema` (table `states`, workspace `default`), if that schema exists. */
    async legacyPgState(schema: string): Promise<string | undefined> {
      const exists = await db.execute(sql`select 1 from information_schema.tables where table_schema = ${schema} and table_name = 'states'`);
      if (!exists.rows.length) return undefined;
      const rows = await db.execute(sql.raw(`select data from "${schema.replace(/"/g, '')}".states where name = 'default'`));
      return (rows.rows[0] as { data?: string } | undefined)?.data ?? undefined;
    },
    /** Drops the schema an older Gantry's terraform pg backend kept a state in. */
    dropLegacyPgState: (schema: string) => db.execute(sql.raw(`drop schema if exists "${schema.replace(/"/g, '')}" cascade`)),
    /** Inserts a queued deployment; null when the environment already has one queued or running. */
    async insert(values: typeof deployments.$inferInsert): Promise<DeploymentRow | null> {
      try {
        return (await db.insert(deployments).values(values).returning())[0]!;
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },
    get: async (id: string) => (await db.select().from(deployments).where(eq(deployments.id, id)))[0],
    ofStage: async (stageId: string, id: string) =>
      (
        await db
          .select()
          .from(deployments)
          .where(and(eq(deployments.stageId, stageId), eq(deployments.id, id)))
      )[0],
    active: async (stageId: string) =>
      (
        await db
          .select()
          .from(deployments)
          .where(and(eq(deployments.stageId, stageId), eq(deployments.active, true)))
      )[0],
    /** Latest first; `before` pages on from a deployment's creation time. */
    history: async (stageId: string, limit: number, beforeId?: string) => {
      const before = beforeId ? (await db.select({ t: deployments.createdAt }).from(deployments).where(eq(deployments.id, beforeId)))[0]?.t : undefined;
      return db
        .select()
        .from(deployments)
        .where(and(eq(deployments.stageId, stageId), before ? lt(deployments.createdAt, before) : undefined))
        .orderBy(desc(deployments.createdAt))
        .limit(limit);
    },
    /** A project's latest deployments of every environment (the overview's timeline). */
    recentOfProject: (projectId: string, limit: number) =>
      db.select().from(deployments).where(eq(deployments.projectId, projectId)).orderBy(desc(deployments.createdAt)).limit(limit),
    /** Keeps the timeline entries of an environment about to be deleted (its deployments go with it). */
    keepTimelineOfRemovedStage: async (stage: { projectId: string; stageId: string; stageName: string }, limit: number) => {
      const rows = await db
        .select()
        .from(deployments)
        .where(and(eq(deployments.projectId, stage.projectId), eq(deployments.stageId, stage.stageId)))
        .orderBy(desc(deployments.createdAt))
        .limit(limit);
      if (rows.length === 0) return;
      await db
        .insert(removedStageDeployments)
        .values(
          rows.map((d) => ({
            deploymentId: d.id,
            projectId: stage.projectId,
            stageId: stage.stageId,
            stageName: stage.stageName,
            status: d.status,
            at: d.finishedAt ?? d.startedAt ?? d.createdAt,
          })),
        )
        .onConflictDoNothing();
    },
    /** The kept timeline entries of a project's deleted environments, newest first. */
    removedStageTimeline: (projectId: string, limit: number) =>
      db.select().from(removedStageDeployments).where(eq(removedStageDeployments.projectId, projectId)).orderBy(desc(removedStageDeployments.at)).limit(limit),
    remove: (id: string) => db.delete(deployments).where(eq(deployments.id, id)),
    /** Bookkeeping of a run (heartbeat, pid, cancel flag); its status is written through status-events. */
    update: (id: string, values: Partial<typeof deployments.$inferInsert>) => db.update(deployments).set(values).where(eq(deployments.id, id)),
    /**
     * A status write: answers the row as written. The write of a run's end (finishedAt) adds its time to the
     * project's minutes of that month, once: only while the row has no end yet (locked, so two ends never both count).
     */
    async setStatus(id: string, values: Partial<typeof deployments.$inferInsert>, tx: Tx = db) {
      if (values.finishedAt) {
        const end = values.finishedAt.toISOString();
        await tx.execute(sql`
          insert into ${deploymentMinutes} (project_id, month, ms)
          select ${deployments.projectId}, ${monthOf(values.finishedAt).toISOString()}::timestamptz,
                 greatest(0, round(extract(epoch from (${end}::timestamptz - ${deployments.startedAt})) * 1000))::bigint
          from ${deployments}
          where ${deployments.id} = ${id} and ${deployments.finishedAt} is null and ${deployments.startedAt} is not null
          for update
          on conflict (project_id, month) do update set ms = ${deploymentMinutes}.ms + excluded.ms`);
      }
      return (await tx.update(deployments).set(values).where(eq(deployments.id, id)).returning())[0];
    },
    /** Deployment time (ms) of the project's runs that ended in the month of `at`, from the running counter. */
    usedMs: async (projectId: string, at = new Date()) =>
      Number(
        (
          await db
            .select({ ms: deploymentMinutes.ms })
            .from(deploymentMinutes)
            .where(and(eq(deploymentMinutes.projectId, projectId), eq(deploymentMinutes.month, monthOf(at))))
        )[0]?.ms ?? 0,
      ),
    /** Takes a queued deployment for this worker; undefined when another took it first (or it ended). */
    claim: async (id: string, values: Partial<typeof deployments.$inferInsert>, tx: Tx = db) =>
      (
        await tx
          .update(deployments)
          .set(values)
          .where(and(eq(deployments.id, id), eq(deployments.active, true), isNull(deployments.startedAt)))
          .returning()
      )[0],
    /** Moves a deployment on only from one of the given statuses; answers whether it did. */
    transition: async (id: string, from: string[], values: Partial<typeof deployments.$inferInsert>) =>
      (
        await db
          .update(deployments)
          .set(values)
          .where(and(eq(deployments.id, id), inArray(deployments.status, from)))
          .returning({ id: deployments.id })
      ).length > 0,
    /** Running deployments whose worker stopped beating, and queued ones no worker took within `queuedBefore`. */
    stale: (before: Date, queuedBefore: Date) =>
      db
        .select()
        .from(deployments)
        .where(
          and(
            eq(deployments.active, true),
            or(
              and(isNotNull(deployments.startedAt), or(lt(deployments.heartbeatAt, before), sql`${deployments.heartbeatAt} is null`)),
              and(sql`${deployments.startedAt} is null`, lt(deployments.createdAt, queuedBefore)),
            ),
          ),
        ),
    /**
     * Takes a stale run for this recovery sweep (several processes sweep): the claim refreshes the
     * heartbeat, so another sweeper no longer finds it stale.
     */
    claimStale: async (id: string, before: Date) =>
      (
        await db
          .update(deployments)
          .set({ heartbeatAt: new Date() })
          .where(and(eq(deployments.id, id), eq(deployments.active, true), or(isNull(deployments.heartbeatAt), lt(deployments.heartbeatAt, before))))
          .returning({ id: deployments.id })
      ).length > 0,
    /** Milliseconds the engine ran, per environment of the project, for deployments finished since `since`. */
    timeSince: (projectId: string, since: Date) =>
      db
        .select({
          stageId: deployments.stageId,
          ms: sql<number>`coalesce(sum(extract(epoch from (${deployments.finishedAt} - ${deployments.startedAt})) * 1000), 0)`,
        })
        .from(deployments)
        .where(and(eq(deployments.projectId, projectId), gte(deployments.finishedAt, since), isNotNull(deployments.startedAt)))
        .groupBy(deployments.stageId),

    appendLog: (values: (typeof deploymentLogs.$inferInsert)[]) => db.insert(deploymentLogs).values(values),
    logs: (deploymentId: string, afterSeq = -1) =>
      db
        .select({ seq: deploymentLogs.seq, text: deploymentLogs.text })
        .from(deploymentLogs)
        .where(and(eq(deploymentLogs.deploymentId, deploymentId), gt(deploymentLogs.seq, afterSeq)))
        .orderBy(asc(deploymentLogs.seq)),

    insertPlan: async (values: typeof deploymentPlans.$inferInsert) => (await db.insert(deploymentPlans).values(values).returning())[0]!,
    plan: async (stageId: string, id: string) =>
      (
        await db
          .select()
          .from(deploymentPlans)
          .where(and(eq(deploymentPlans.stageId, stageId), eq(deploymentPlans.id, id)))
      )[0],
    planById: async (id: string) => (await db.select().from(deploymentPlans).where(eq(deploymentPlans.id, id)))[0],
    /** Takes a CREATING plan for this worker; false when another took it first. */
    claimPlan: async (id: string, workerId: string) =>
      (
        await db
          .update(deploymentPlans)
          .set({ workerId, heartbeatAt: new Date() })
          .where(and(eq(deploymentPlans.id, id), eq(deploymentPlans.status, 'CREATING'), isNull(deploymentPlans.workerId)))
          .returning({ id: deploymentPlans.id })
      ).length > 0,
    removePlan: (id: string) => db.delete(deploymentPlans).where(eq(deploymentPlans.id, id)),
    /** Bookkeeping of a plan run (heartbeat, pid); its status is written with setPlanStatus. */
    updatePlan: (id: string, values: Partial<typeof deploymentPlans.$inferInsert>) => db.update(deploymentPlans).set(values).where(eq(deploymentPlans.id, id)),
    /** A plan's status write: answers the plan as written. */
    setPlanStatus: async (id: string, values: Partial<typeof deploymentPlans.$inferInsert>, tx: Tx = db) =>
      (await tx.update(deploymentPlans).set(values).where(eq(deploymentPlans.id, id)).returning())[0],
    creatingPlan: async (stageId: string) =>
      (
        await db
          .select()
          .from(deploymentPlans)
          .where(and(eq(deploymentPlans.stageId, stageId), eq(deploymentPlans.status, 'CREATING')))
      )[0],
    /**
     * Plans made before a deployment changed the state can no longer be applied. `sealed`: the state the run that
     * changed it left, stored in the same statement (a data-modifying CTE: a statement is a round trip more on the
     * way to the run's end, on PGlite through its one thread).
     */
    expirePlans: (stageId: string, tx: Tx = db, sealed?: string) => {
      const state = sealed
        ? [
            tx.$with('sealed_state').as(
              tx
                .insert(terraformStates)
                .values({ stageId, sealed })
                .onConflictDoUpdate({ target: terraformStates.stageId, set: { sealed, updatedAt: new Date() } }),
            ),
          ]
        : [];
      return tx
        .with(...state)
        .update(deploymentPlans)
        .set({ status: 'EXPIRED' })
        .where(and(eq(deploymentPlans.stageId, stageId), eq(deploymentPlans.status, 'READY')))
        .returning();
    },
    /** Takes a stale CREATING plan for this recovery sweep, like claimStale. */
    claimStalePlan: async (id: string, before: Date) =>
      (
        await db
          .update(deploymentPlans)
          .set({ heartbeatAt: new Date() })
          .where(
            and(
              eq(deploymentPlans.id, id),
              eq(deploymentPlans.status, 'CREATING'),
              or(isNull(deploymentPlans.heartbeatAt), lt(deploymentPlans.heartbeatAt, before)),
            ),
          )
          .returning({ id: deploymentPlans.id })
      ).length > 0,
    stalePlans: (before: Date) =>
      db
        .select()
        .from(deploymentPlans)
        .where(
          and(
            eq(deploymentPlans.status, 'CREATING'),
            or(lt(deploymentPlans.heartbeatAt, before), and(sql`${deploymentPlans.heartbeatAt} is null`, lte(deploymentPlans.createdAt, before))),
          ),
        ),
  };
}
export type DeploymentsStore = ReturnType<typeof createDeploymentsStore>;
