import { and, asc, desc, eq, getTableColumns, gt, gte, inArray, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { LogChunk } from '../../platform/log-sink.js';
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

/** A plan a run's end made stale, as its end tells it. */
export type ExpiredPlan = Pick<PlanRow, 'id' | 'stageId' | 'projectId' | 'status' | 'error' | 'planFile'>;

/** The state a run left, stored (or replacing the one before) as a CTE of the statement that writes its end. */
const sealedState = (tx: Db | Tx, stageId: string, sealed: string | undefined) =>
  sealed
    ? [
        tx.$with('sealed_state').as(
          tx
            .insert(terraformStates)
            .values({ stageId, sealed })
            .onConflictDoUpdate({ target: terraformStates.stageId, set: { sealed, updatedAt: new Date() } }),
        ),
      ]
    : [];

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
    /** A status write while a run is queued or runs: answers the row as written (its end is written by endRun). */
    setStatus: async (id: string, values: Partial<typeof deployments.$inferInsert>, tx: Tx = db) =>
      (await tx.update(deployments).set(values).where(eq(deployments.id, id)).returning())[0],
    /**
     * A run's end as one statement (a statement is a round trip, on PGlite through its one thread, on the way to the
     * end a user waits for): its status write, its time added to the project's minutes of the month once (only while
     * the row has no end yet, locked first: of two ends only the first counts); the plans it made stale EXPIRED (made
     * before the run changed the state, they can no longer be applied) with the state it left; and its log's last
     * chunk. Answers the row as written (undefined when it is gone) and the plans expired.
     */
    async endRun(
      id: string,
      values: Partial<typeof deployments.$inferInsert> & { finishedAt: Date },
      o: { stageId: string; sealed?: string; chunk?: LogChunk | null },
      tx: Tx = db,
    ) {
      const end = values.finishedAt.toISOString();
      const before = tx.$with('before_end', {}).as(sql`select finished_at as was_finished from ${deployments} where id = ${id} for update`);
      const expired = tx.$with('expired').as(
        tx
          .update(deploymentPlans)
          .set({ status: 'EXPIRED' })
          .where(and(eq(deploymentPlans.stageId, o.stageId), eq(deploymentPlans.status, 'READY')))
          .returning(),
      );
      const updated = tx.$with('updated').as(
        tx
          .update(deployments)
          .set(values)
          .where(and(eq(deployments.id, id), sql`exists (select 1 from before_end)`))
          .returning({
            ...getTableColumns(deployments),
            expired: sql<
              ExpiredPlan[]
            >`(select coalesce(json_agg(json_build_object('id', e.id, 'stageId', e.stage_id, 'projectId', e.project_id, 'status', e.status, 'error', e.error, 'planFile', e.plan_file)), '[]'::json) from expired e)`.as(
              'expired',
            ),
          }),
      );
      const counted = tx.$with('counted', {}).as(
        sql`insert into ${deploymentMinutes} (project_id, month, ms)
          select u.project_id, ${monthOf(values.finishedAt).toISOString()}::timestamptz,
                 greatest(0, round(extract(epoch from (${end}::timestamptz - u.started_at)) * 1000))::bigint
          from updated u, before_end b where b.was_finished is null and u.started_at is not null
          on conflict (project_id, month) do update set ms = ${deploymentMinutes}.ms + excluded.ms`,
      );
      const log = o.chunk
        ? [
            tx
              .$with('last_log', {})
              .as(
                sql`insert into ${deploymentLogs} (deployment_id, seq, text) select ${id}, ${o.chunk.seq}, ${o.chunk.text} where exists (select 1 from updated)`,
              ),
          ]
        : [];
      const [written] = await tx
        .with(before, expired, updated, counted, ...log, ...sealedState(tx, o.stageId, o.sealed))
        .select()
        .from(updated);
      if (!written) return { row: undefined, expired: [] as ExpiredPlan[] };
      const { expired: plans, ...row } = written;
      return { row: row as DeploymentRow, expired: plans };
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
    /**
     * Once a run's row is inserted, one statement: whether a plan of the environment is being made (the run backs out then),
     * and, with `state`, the environment's sealed state (null: none), read after the row, hence after any run before it ended.
     */
    afterInsert: async (stageId: string, o: { state: boolean }) => {
      const [r] = await db
        .select({
          planCreating: sql<boolean>`exists (select 1 from ${deploymentPlans} where ${deploymentPlans.stageId} = ${stageId} and ${deploymentPlans.status} = 'CREATING')`,
          sealed: o.state
            ? sql<string | null>`(select ${terraformStates.sealed} from ${terraformStates} where ${terraformStates.stageId} = ${stageId})`
            : sql<null>`null`,
        })
        .from(sql`(select 1) as one`);
      return { planCreating: r!.planCreating, sealed: r!.sealed ?? null };
    },
    creatingPlan: async (stageId: string) =>
      (
        await db
          .select()
          .from(deploymentPlans)
          .where(and(eq(deploymentPlans.stageId, stageId), eq(deploymentPlans.status, 'CREATING')))
      )[0],
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
    /** The environments with a deployment or a plan under way (queued or running). */
    busyStages: async () => {
      const [deploying, planning] = await Promise.all([
        db.selectDistinct({ id: deployments.stageId }).from(deployments).where(eq(deployments.active, true)),
        db.selectDistinct({ id: deploymentPlans.stageId }).from(deploymentPlans).where(eq(deploymentPlans.status, 'CREATING')),
      ]);
      return [...deploying, ...planning].map((r) => r.id);
    },
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
