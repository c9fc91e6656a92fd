import { and, asc, desc, eq, gt, gte, inArray, isNotNull, lt, ne, sql, or, ilike, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db.js';
import type { LogChunk } from '../../platform/log-sink.js';
import { buildArtifacts, buildLogs, buildMinutes, buildNumbers, builds, buildSteps, webhookDeliveries } from './builds.tables.js';
import { pipelines } from '../pipelines/pipelines.tables.js';

export type BuildRow = typeof builds.$inferSelect;
export type StepRow = typeof buildSteps.$inferSelect;
export type ArtifactRow = typeof buildArtifacts.$inferSelect;
type Status = BuildRow['status'];
/** A step's end as written: its status, stop date and why it failed. */
export type StepEnd = { name: string; status: Status; stopDate: Date; errorMessage?: string | null };

/** The first instant of the UTC month of a date: the key of the minutes counter. */
export const monthOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));

/** A step's log chunk as an insert, only `when` it holds (a condition on the statement it goes with). */
const logInsertSql = (buildId: string, step: string, chunk: LogChunk, when?: SQL) =>
  sql`insert into ${buildLogs} (build_id, step, seq, text) select ${buildId}, ${step}, ${chunk.seq}, ${chunk.text}${when ? sql` where ${when}` : sql``}`;

/** A step's end, and the next step's start when there is one, as one update of their rows (only `when` it holds). */
function stepsUpdateSql(buildId: string, ended: StepEnd, next: { name: string; startDate: Date } | null, when?: SQL) {
  const isEnded = sql`name = ${ended.name}`;
  return sql`update ${buildSteps} set
    status = case when ${isEnded} then ${ended.status} else 'RUNNING' end,
    stop_date = case when ${isEnded} then ${ended.stopDate.toISOString()}::timestamptz else stop_date end,
    error_message = case when ${isEnded} then ${ended.errorMessage ?? null}::text else error_message end,
    start_date = case when ${isEnded} then start_date else ${next?.startDate.toISOString() ?? null}::timestamptz end
    where build_id = ${buildId} and name in (${ended.name}, ${next?.name ?? ended.name})${when ? sql` and ${when}` : sql``}`;
}

/**
 * The pipeline's next build number, taken: one more than the last given, or than the highest of its builds when
 * that is higher (the first build since numbers are kept, or builds written with a number of their own); the row lock of the
 * upsert orders concurrent triggers, and what a trigger's snapshot missed the last given covers.
 */
const nextNumber = (q: Db | Tx, pipelineId: string) =>
  q.$with('next_number', { last: sql<number>`last` }).as(
    sql`insert into ${buildNumbers} (pipeline_id, last)
      values (${pipelineId}, (select coalesce(max(${builds.number}), 0) + 1 from ${builds} where ${builds.pipelineId} = ${pipelineId}))
      on conflict (pipeline_id) do update set last = greatest(${buildNumbers}.last, excluded.last - 1) + 1
      returning last`,
  );

export function createBuildsStore(db: Db) {
  return {
    /** A new build with the pipeline's next number (and its steps, when known): one statement without steps. */
    async insertWithSteps(build: Omit<typeof builds.$inferInsert, 'number'>, steps: Omit<typeof buildSteps.$inferInsert, 'buildId'>[]) {
      const insert = async (q: Db | Tx) => {
        const [row] = await q
          .with(nextNumber(q, build.pipelineId))
          .insert(builds)
          .values({ ...build, number: sql`(select last from next_number)` })
          .returning();
        if (steps.length) await q.insert(buildSteps).values(steps.map((s) => ({ ...s, buildId: row!.id })));
        return row!;
      };
      return steps.length ? db.transaction((tx) => insert(tx)) : insert(db);
    },
    /** A claimed build's commit, spec and steps, resolved in its run: written together; answers the build and its steps in order. */
    resolved: (id: string, values: Partial<typeof builds.$inferInsert>, steps: Omit<typeof buildSteps.$inferInsert, 'buildId'>[]) =>
      db.transaction(async (tx) => {
        const [row] = await tx.update(builds).set(values).where(eq(builds.id, id)).returning();
        const rows = steps.length
          ? await tx
              .insert(buildSteps)
              .values(steps.map((s) => ({ ...s, buildId: id })))
              .returning()
          : [];
        return { build: row!, steps: rows.sort((x, y) => x.position - y.position) };
      }),
    byId: async (projectId: string, pipelineId: string, id: string) =>
      (
        await db
          .select()
          .from(builds)
          .where(and(eq(builds.projectId, projectId), eq(builds.pipelineId, pipelineId), eq(builds.id, id)))
      )[0],
    byNumber: async (projectId: string, pipelineId: string, n: number) =>
      (
        await db
          .select()
          .from(builds)
          .where(and(eq(builds.projectId, projectId), eq(builds.pipelineId, pipelineId), eq(builds.number, n)))
      )[0],
    get: async (id: string, tx: Tx = db) => (await tx.select().from(builds).where(eq(builds.id, id)))[0],
    /** A page of the pipeline's builds, newest first: after the build `cursor` (keyset), then skipping `offset`. */
    page: (pipelineId: string, o: { limit: number; offset: number; cursor?: string; search?: string }) =>
      db
        .select()
        .from(builds)
        .where(
          and(
            eq(builds.pipelineId, pipelineId),
            o.cursor
              ? sql`(${builds.createdAt}, ${builds.id}) < (select c.created_at, c.id from ${builds} c where c.id = ${o.cursor} and c.pipeline_id = ${pipelineId})`
              : undefined,
            o.search ? or(ilike(sql`${builds.id}::text`, `%${o.search}%`), sql`${builds.number}::text = ${o.search}`) : undefined,
          ),
        )
        .orderBy(desc(builds.createdAt), desc(builds.id))
        .limit(o.limit)
        .offset(o.offset),
    /** The newest build of each of the given pipelines: one index probe per pipeline, whatever the history. */
    latestFor: (pipelineIds: string[]) =>
      pipelineIds.length
        ? db
            .select()
            .from(builds)
            .where(
              sql`${builds.id} in (select (select l.id from ${builds} l where l.pipeline_id = p.id order by l.created_at desc, l.id desc limit 1)
                from ${pipelines} p where p.id in (${sql.join(
                  pipelineIds.map((id) => sql`${id}`),
                  sql`, `,
                )}))`,
            )
        : Promise.resolve([] as BuildRow[]),
    steps: (buildId: string) => db.select().from(buildSteps).where(eq(buildSteps.buildId, buildId)).orderBy(asc(buildSteps.position)),
    stepsFor: (buildIds: string[]) =>
      buildIds.length
        ? db.select().from(buildSteps).where(inArray(buildSteps.buildId, buildIds)).orderBy(asc(buildSteps.position))
        : Promise.resolve([] as StepRow[]),
    update: (id: string, values: Partial<typeof builds.$inferInsert>, tx: Tx = db) => tx.update(builds).set(values).where(eq(builds.id, id)),
    /** Moves a build on only from one of the given statuses; answers the moved row, or undefined when it was in none of them. */
    transition: async (id: string, from: Status[], values: Partial<typeof builds.$inferInsert>) =>
      (
        await db
          .update(builds)
          .set(values)
          .where(and(eq(builds.id, id), inArray(builds.status, from)))
          .returning()
      )[0],
    /**
     * Ends a build (only from one of `from`, when given): its stop date and its time added to the
     * project's minutes of its month in the same statement; with `step`, its last step's end and that
     * step's last log chunk too (`written` is told once it committed). Answers the ended row, or undefined
     * when the build had already moved on (then nothing is written).
     */
    end: async (
      id: string,
      from: Status[] | null,
      values: Partial<typeof builds.$inferInsert> & { status: Status; stopDate: Date },
      step?: { ended: StepEnd; chunk: LogChunk | null },
      written?: () => void,
    ) => {
      // one statement: the build's update, and what goes with it only when it updated a row
      const ended = db.$with('ended').as(
        db
          .update(builds)
          .set(values)
          .where(and(eq(builds.id, id), from ? inArray(builds.status, from) : undefined))
          .returning(),
      );
      const counted = db.$with('counted', {}).as(
        sql`insert into ${buildMinutes} (project_id, month, ms)
          select project_id, date_trunc('month', created_at, 'UTC'), greatest(0, round(extract(epoch from stop_date - start_date) * 1000))::bigint
          from ended where start_date is not null
          on conflict (project_id, month) do update set ms = ${buildMinutes}.ms + excluded.ms`,
      );
      const updated = sql`exists (select 1 from ended)`;
      const withStep = step
        ? [
            db.$with('step', {}).as(stepsUpdateSql(id, step.ended, null, updated)),
            ...(step.chunk ? [db.$with('log', {}).as(logInsertSql(id, step.ended.name, step.chunk, updated))] : []),
          ]
        : [];
      const [row] = await db
        .with(ended, counted, ...withStep)
        .select()
        .from(ended);
      if (row) written?.();
      return row;
    },
    /** Build time (ms) the project's builds created in the month of `at` have used, from the running counter. */
    usedMs: async (projectId: string, at = new Date()) =>
      Number(
        (
          await db
            .select({ ms: buildMinutes.ms })
            .from(buildMinutes)
            .where(and(eq(buildMinutes.projectId, projectId), eq(buildMinutes.month, monthOf(at))))
        )[0]?.ms ?? 0,
      ),
    /**
     * What a running build counts against its project's minutes of the month of `at`, in one statement: the time the
     * month's ended builds used, and when the project's builds of that month running now (here or elsewhere; but `except`) started.
     */
    monthUse: async (projectId: string, at: Date, except?: string) => {
      const month = monthOf(at);
      const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
      const [row] = await db
        .select({
          usedMs: sql<
            string | null
          >`(select ${buildMinutes.ms} from ${buildMinutes} where ${buildMinutes.projectId} = ${projectId} and ${buildMinutes.month} = ${month})`,
          // as text ('<ms>,<ms>'): every driver answers it alike
          running: sql<string | null>`array_to_string(array(${db
            .select({ startMs: sql`round(extract(epoch from ${builds.startDate}) * 1000)::bigint` })
            .from(builds)
            .where(
              and(
                eq(builds.projectId, projectId),
                eq(builds.status, 'RUNNING'),
                isNotNull(builds.startDate),
                except ? ne(builds.id, except) : undefined,
                gte(builds.createdAt, month),
                lt(builds.createdAt, next),
              ),
            )}), ',')`,
        })
        .from(sql`(select 1) as one`);
      const othersStarted = (row?.running || '')
        .split(',')
        .filter(Boolean)
        .map((ms) => new Date(Number(ms)));
      return { usedMs: Number(row?.usedMs ?? 0), othersStarted };
    },
    updateStep: (buildId: string, name: string, values: Partial<typeof buildSteps.$inferInsert>) =>
      db
        .update(buildSteps)
        .set(values)
        .where(and(eq(buildSteps.buildId, buildId), eq(buildSteps.name, name))),
    /**
     * Between two steps, one statement: the step that ended (its status and stop date, with its last log
     * chunk) and the next one started (RUNNING from `next.startDate`). `written` is told once it committed.
     */
    stepsMoved: async (buildId: string, ended: StepEnd, next: { name: string; startDate: Date }, chunk: LogChunk | null, written?: () => void) => {
      const update = stepsUpdateSql(buildId, ended, next);
      await db.execute(chunk ? sql`with log as (${logInsertSql(buildId, ended.name, chunk)}) ${update}` : update);
      written?.();
    },
    /** Builds some worker claimed but stopped beating for: their process died. */
    stale: (before: Date) =>
      db
        .select()
        .from(builds)
        .where(and(inArray(builds.status, ['RUNNING']), or(lt(builds.heartbeatAt, before), sql`${builds.heartbeatAt} is null`))),
    active: (projectId?: string) =>
      db
        .select()
        .from(builds)
        .where(and(inArray(builds.status, ['SCHEDULING', 'QUEUED', 'RUNNING']), projectId ? eq(builds.projectId, projectId) : undefined)),

    /**
     * The project's newest builds with their pipeline's name, for the timeline. The name is looked up for
     * each of the page's builds: joined, a project with few builds was planned as a hash of every pipeline.
     */
    recent: (projectId: string, limit: number) =>
      db
        .select({ b: builds, pipelineName: sql<string>`(select p.name from ${pipelines} p where p.id = ${builds}.${sql.identifier(builds.pipelineId.name)})` })
        .from(builds)
        .where(eq(builds.projectId, projectId))
        .orderBy(desc(builds.createdAt))
        .limit(limit),

    appendLog: (values: (typeof buildLogs.$inferInsert)[]) => db.insert(buildLogs).values(values),
    logs: (buildId: string, step: string, afterSeq = -1) =>
      db
        .select({ seq: buildLogs.seq, text: buildLogs.text })
        .from(buildLogs)
        .where(and(eq(buildLogs.buildId, buildId), eq(buildLogs.step, step), gt(buildLogs.seq, afterSeq)))
        .orderBy(asc(buildLogs.seq)),

    addArtifact: async (values: typeof buildArtifacts.$inferInsert) => (await db.insert(buildArtifacts).values(values).returning())[0]!,
    artifacts: (buildIds: string[]) =>
      buildIds.length
        ? db.select().from(buildArtifacts).where(inArray(buildArtifacts.buildId, buildIds)).orderBy(asc(buildArtifacts.createdAt))
        : Promise.resolve([] as ArtifactRow[]),
    artifact: async (buildId: string, id: string) =>
      (
        await db
          .select()
          .from(buildArtifacts)
          .where(and(eq(buildArtifacts.buildId, buildId), eq(buildArtifacts.id, id)))
      )[0],

    /** Successful and failed counts and the summed build time (ms) of finished builds. */
    metrics: async (projectId: string, pipelineId?: string, since?: Date) => {
      const [row] = await db
        .select({
          ok: sql<number>`count(*) filter (where ${builds.status} = 'SUCCEEDED')`,
          failed: sql<number>`count(*) filter (where ${builds.status} = 'FAILED')`,
          ms: sql<number>`coalesce(sum(extract(epoch from (${builds.stopDate} - ${builds.startDate})) * 1000), 0)`,
        })
        .from(builds)
        .where(
          and(
            eq(builds.projectId, projectId),
            pipelineId ? eq(builds.pipelineId, pipelineId) : undefined,
            since ? gt(builds.createdAt, since) : undefined,
            isNotNull(builds.startDate),
          ),
        );
      return { successfulExecutions: Number(row!.ok), failedExecutions: Number(row!.failed), buildTime: Math.round(Number(row!.ms)) };
    },

    /** Takes a push delivery once: true when it is new, false when the same delivery was taken before. */
    takeDelivery: async (delivery: { provider: string; deliveryId: string; pipelineId: string }) =>
      (await db.insert(webhookDeliveries).values(delivery).onConflictDoNothing().returning({ deliveryId: webhookDeliveries.deliveryId })).length > 0,
    /** Gives a taken delivery back (its push could not be handled), so the provider's redelivery is not a duplicate. */
    releaseDelivery: (provider: string, deliveryId: string) =>
      db.delete(webhookDeliveries).where(and(eq(webhookDeliveries.provider, provider), eq(webhookDeliveries.deliveryId, deliveryId))),
    pruneDeliveries: (before: Date) => db.delete(webhookDeliveries).where(lt(webhookDeliveries.receivedAt, before)),

    // read side of component builds (the components module reaches it through the pipelines api)
    /**
     * Builds of a pipeline that left component files at a step, newest first: SUCCEEDED ones, and the
     * RUNNING one whose step already SUCCEEDED (a later deploy step of the same build deploys it).
     */
    componentVersions: (pipelineId: string, step: string, filesName: string) =>
      db
        .select({
          buildId: builds.id,
          number: builds.number,
          stopDate: builds.stopDate,
          commitSha: builds.commitSha,
          commitMessage: builds.commitMessage,
          commitAuthor: builds.commitAuthor,
          commitAvatar: builds.commitAvatar,
        })
        .from(builds)
        .innerJoin(
          buildArtifacts,
          and(eq(buildArtifacts.buildId, builds.id), eq(buildArtifacts.step, step), eq(buildArtifacts.name, filesName), eq(buildArtifacts.kind, 'files')),
        )
        .where(
          and(
            eq(builds.pipelineId, pipelineId),
            or(
              eq(builds.status, 'SUCCEEDED'),
              and(
                eq(builds.status, 'RUNNING'),
                sql`exists (select 1 from ${buildSteps} where ${buildSteps.buildId} = ${builds.id} and ${buildSteps.name} = ${step} and ${buildSteps.status} = 'SUCCEEDED')`,
              ),
            ),
          ),
        )
        .orderBy(desc(builds.stopDate), desc(builds.number)),
    /** The newest build of the pipeline that has not ended yet. */
    newestActive: async (pipelineId: string) =>
      (
        await db
          .select()
          .from(builds)
          .where(and(eq(builds.pipelineId, pipelineId), inArray(builds.status, ['SCHEDULING', 'QUEUED', 'RUNNING'])))
          .orderBy(desc(builds.createdAt))
          .limit(1)
      )[0],
    /** One artifact a build's step left, by name and kind. */
    stepArtifact: async (buildId: string, step: string, name: string, kind: ArtifactRow['kind']) =>
      (
        await db
          .select()
          .from(buildArtifacts)
          .where(and(eq(buildArtifacts.buildId, buildId), eq(buildArtifacts.step, step), eq(buildArtifacts.name, name), eq(buildArtifacts.kind, kind)))
      )[0],
  };
}
export type BuildsStore = ReturnType<typeof createBuildsStore>;
