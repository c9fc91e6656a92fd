/**
 * p95 latency of the list endpoints at scale (issue 14): one member of 200 projects holding 2,000
 * pipelines and 10,000 builds, 400 environments with 2,000 deployments and 1,000 notifications of the
 * member (1× history), and beside it the same with a tenfold history (100,000 builds, 20,000
 * deployments, 10,000 notifications): projects, pipelines, builds pages, timeline, environments,
 * deployment history, components, members and notifications;
 * every list must answer within its budget and stay flat as history grows. Two Gantrys, each on its own
 * database, are seeded first (straight through their stores, bulk build rows through the builds table);
 * then each round asks every list of one and of the other in turn, request by request, so both see the
 * same machine load (the first of the two alternates). On PGlite and on a throwaway PostgreSQL (two databases on it).
 * Growth is told by the p95s' ratio and by the medians' ratio: on a loaded machine a p95 is the load's (see medianGrowth).
 *   npx tsx bench/lists.ts   (BENCH_REQUESTS per turn, BENCH_ROUNDS, BENCH_DATABASE_URL: a server where the bench may create databases)
 */
import pg from 'pg';
import { freePort, startSmtp, type SmtpStandIn } from '@gantry/test-support';
import { startBenchGantry, type BenchGantry } from './src/bench-gantry.js';
import { createGitAccountsStore } from '../apps/server/src/modules/git-accounts/git-accounts.store.js';
import { createPipelinesStore } from '../apps/server/src/modules/pipelines/pipelines.store.js';
import { builds as buildsTable, buildSteps } from '../apps/server/src/modules/builds/builds.tables.js';
import { stages as stagesTable } from '../apps/server/src/modules/stages/stages.tables.js';
import { deployments as deploymentsTable } from '../apps/server/src/modules/deployments/deployments.tables.js';
import { notifications as notificationsTable } from '../apps/server/src/modules/notifications/notifications.tables.js';
import { benchUser, postJson } from './src/bench-user.js';
import { fmtSpread, isMain, spread, table, type Spread } from './src/load.js';
import { onEachDatabase } from './src/databases.js';

const PROJECTS = 200;
const PIPELINES_PER_PROJECT = 10; // 2,000 pipelines
const BUILDS_PER_PIPELINE = 5; // 10,000 builds at 1×
const STAGES_PER_PROJECT = 2; // 400 environments
const DEPLOYMENTS_PER_STAGE = 5; // 2,000 deployments at 1×
const BUILDS_PER_NOTIFICATION = 10; // the bench user's notifications: 1,000 at 1×
const STEPS = ['Clone', 'Build', 'Test'];
const MEASURED_PIPELINE_HISTORY = 10; // times the builds of the other pipelines
/** PGlite gathers the planner's statistics a moment after writes (it has no autovacuum); a live history grows far slower than a seed. */
const PGLITE_ANALYZE_MS = 8_000;

export interface ListLine {
  endpoint: string;
  /** p95 per round, ms, at 1× and 10× history. */
  p95: Spread;
  p95At10x: Spread;
  /** p95 at 10× ÷ at 1×, per round (the two were measured one right after the other). */
  growth: Spread;
  /**
   * The median at 10× ÷ at 1×, per round: what more history costs every request. On this shared machine a round's
   * p95 is the third slowest of its 40 requests, whichever a burst of other work fell on: its ratio strays as far
   * with the same history on both sides (A/A, 15 rounds: 0.40–1.71) as with 1× and 10× (0.36–1.79), the medians' not (0.85–1.07).
   */
  medianGrowth: Spread;
}
export interface ListsResult {
  database: 'PGlite' | 'PostgreSQL';
  lines: ListLine[];
}

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const p95 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.ceil(ms.length * 0.95) - 1]!;
const median = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.ceil(ms.length * 0.5) - 1]!;

/** A database of its own on the PostgreSQL server at `serverUrl`, dropped by `drop()`. */
async function createDatabase(serverUrl: string, name: string) {
  const admin = async (text: string) => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  const database = `gantry_bench_${name}_${process.pid}`;
  await admin(`create database ${database}`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${database} with (force)`) };
}

interface SeededGantry {
  /** The lists asked, as [label, URL]: the same labels on every Gantry. */
  endpoints: [string, string][];
  get(p: string): Promise<unknown>;
  close(): Promise<void>;
}

/** A Gantry on a database of its own holding the bench's projects with `factor` times the 1× history. */
async function seededGantry(name: string, factor: number, smtp: SmtpStandIn, serverUrl: string | undefined): Promise<SeededGantry> {
  const database = serverUrl ? await createDatabase(serverUrl, name) : undefined;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let gantry: BenchGantry;
  try {
    gantry = await startBenchGantry(`lists-${name}`, {
      PORT: String(port),
      PUBLIC_URL: url,
      SMTP_URL: smtp.url,
      DATABASE_URL: database?.url ?? '',
    });
  } catch (err) {
    await database?.drop();
    throw err;
  }
  const close = async () => {
    await gantry.close();
    await database?.drop();
  };
  try {
    const post = (p: string, body: unknown, token?: string) => postJson(url, p, body, token);
    const { idToken } = await benchUser(url, smtp, `lists-${name}`);
    const headers = { authorization: `Bearer ${idToken}` };
    const { id: userId } = await fetch(`${url}/ms-usermanagement/users/me`, { headers }).then(json);

    // Projects through the API (membership and plan as a user gets them), the rest through the stores.
    const projectIds: string[] = [];
    for (let i = 0; i < PROJECTS; i++)
      projectIds.push((await post('/ms-project/projects', { name: `Project ${i + 1}`, description: 'Lists bench', paymentPlanId: 'STARTER' }, idToken)).id);
    const db = gantry.app.services.database.db;
    const gitAccounts = createGitAccountsStore(db);
    const pipelines = createPipelinesStore(db);
    const pipelineIds: { projectId: string; pipelineId: string }[] = [];
    for (const projectId of projectIds) {
      const account = await gitAccounts.insert({ projectId, type: 'github', accountName: 'bench', externalId: '1', accessTokenSealed: 'x' });
      for (let p = 0; p < PIPELINES_PER_PROJECT; p++) {
        const row = await pipelines.insert({
          projectId,
          name: `pipeline-${p + 1}`,
          gitAccountId: account.id,
          repositoryUrl: `https://github.com/bench/repo-${p + 1}`,
          repositoryFullName: `bench/repo-${p + 1}`,
          branchFilter: 'main',
          automatedTrigger: false,
          workDir: '.',
          modifiedFiles: '',
          environmentVariables: [],
        });
        pipelineIds.push({ projectId, pipelineId: row.id });
      }
    }
    const t0 = Date.now() - 100 * 24 * 3600_000;
    const inChunks = async <T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) => {
      for (let i = 0; i < rows.length; i += 1000) await insert(rows.slice(i, i + 1000));
    };

    // Builds 1..n of every pipeline, finished, in bulk (ids generated here so steps can follow).
    // The measured pipeline (the first) has ten times the history of the others, so that its 5th page
    // exists at 1× too: at 1× ÷ 10× the same page is compared, not an empty one with a full one.
    const builds: (typeof buildsTable.$inferInsert)[] = [];
    for (const [i, { projectId, pipelineId }] of pipelineIds.entries())
      for (let n = 1; n <= BUILDS_PER_PIPELINE * factor * (i ? 1 : MEASURED_PIPELINE_HISTORY); n++) {
        const start = new Date(t0 + n * 3600_000 + builds.length);
        builds.push({
          id: crypto.randomUUID(),
          projectId,
          pipelineId,
          number: n,
          status: n % 7 ? 'SUCCEEDED' : 'FAILED',
          branch: 'main',
          commitSha: 'a'.repeat(40),
          commitMessage: `Commit ${n}`,
          trigger: 'manual',
          stages: ['build'],
          startDate: start,
          stopDate: new Date(start.getTime() + 60_000),
          createdAt: start,
        });
      }
    await inChunks(builds, async (chunk) => {
      await db.insert(buildsTable).values(chunk);
      await db.insert(buildSteps).values(
        chunk.flatMap((b) =>
          STEPS.map((name, position) => ({
            buildId: b.id!,
            name,
            stage: 'build',
            type: 'build',
            position,
            status: 'SUCCEEDED' as const,
            startDate: b.startDate,
            stopDate: b.stopDate,
          })),
        ),
      );
    });

    // Environments of every project; their deployments grow with the history like the builds.
    const stageRows = projectIds.flatMap((projectId) =>
      Array.from({ length: STAGES_PER_PROJECT }, (_, i) => ({
        projectId,
        name: `env-${i + 1}`,
        description: 'Lists bench',
        cloudProvider: 'aws' as const,
        iacTool: 'terraform' as const,
        status: 'DEPLOYED',
      })),
    );
    const stageIds = (await db.insert(stagesTable).values(stageRows).returning({ id: stagesTable.id, projectId: stagesTable.projectId })).map((r) => ({
      stageId: r.id,
      projectId: r.projectId,
    }));
    const deployments: (typeof deploymentsTable.$inferInsert)[] = [];
    for (const { stageId, projectId } of stageIds)
      for (let n = 1; n <= DEPLOYMENTS_PER_STAGE * factor; n++) {
        const at = new Date(t0 + n * 3600_000 + deployments.length);
        deployments.push({
          stageId,
          projectId,
          kind: 'DEPLOY',
          status: 'DEPLOYED',
          active: false,
          createdAt: at,
          startedAt: at,
          finishedAt: new Date(at.getTime() + 90_000),
        });
      }
    await inChunks(deployments, (chunk) => db.insert(deploymentsTable).values(chunk));
    // The bench user's notifications, for one build in BUILDS_PER_NOTIFICATION.
    const notifications: (typeof notificationsTable.$inferInsert)[] = [];
    for (const [i, { projectId, pipelineId }] of pipelineIds.entries())
      for (let n = 1; n <= BUILDS_PER_PIPELINE * factor; n++)
        if ((i * BUILDS_PER_PIPELINE + n) % BUILDS_PER_NOTIFICATION === 0)
          notifications.push({
            userId,
            projectId,
            author: 'Bench',
            message: `Build ${n} succeeded`,
            entityType: 'PIPELINE',
            itemId: pipelineId,
            createdAt: new Date(t0 + n * 3600_000 + i),
          });
    await inChunks(notifications, (chunk) => db.insert(notificationsTable).values(chunk));
    // PostgreSQL's autovacuum gathers the planner's statistics within a minute or so of such writes, when its
    // round comes: a side measured before then was planned as if its tables were nearly empty (the user's
    // notifications: a bitmap scan and a sort of all 10,000 of them, not the newest 100 read off the index).
    // A live history grows far slower than this seed, and its statistics keep up with it.
    if (serverUrl) await gantry.app.services.database.executeSql('analyze');

    const [first] = pipelineIds;
    const ap = `/ms-ap/projects/${first!.projectId}`;
    const firstStage = stageIds.find((s) => s.projectId === first!.projectId)!.stageId;
    const engine = `/ms-engine/projects/${first!.projectId}`;
    return {
      endpoints: [
        ['GET /ms-project/projects (200 projects)', '/ms-project/projects'],
        ['GET …/pipelines (10 pipelines with their latest build)', `${ap}/pipelines`],
        ['GET …/pipelines/:id/builds, first page', `${ap}/pipelines/${first!.pipelineId}/builds?limit=10&offset=0`],
        ['GET …/pipelines/:id/builds, 5th page', `${ap}/pipelines/${first!.pipelineId}/builds?limit=10&offset=40`],
        ['GET …/timeline (newest builds of the project)', `/ms-elasticsearch/projects/${first!.projectId}/timeline`],
        ['GET …/stages (environments)', `${engine}/stages`],
        ['GET …/stages/:id/deployments (history, first page)', `${engine}/stages/${firstStage}/deployments`],
        ['GET …/components', `${engine}/components`],
        ['GET …/users (members)', `/ms-project/projects/${first!.projectId}/users`],
        ["GET /ms-notification/notifications (the user's newest)", '/ms-notification/notifications'],
      ],
      // the first call may meet a keep-alive socket the server closed while seeding ran: once more then
      get: (p) =>
        fetch(url + p, { headers })
          .catch(() => fetch(url + p, { headers }))
          .then(json),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

export async function benchLists(o: { databaseUrl?: string; requests?: number; rounds?: number } = {}): Promise<ListsResult> {
  const requests = o.requests ?? Number(process.env.BENCH_REQUESTS ?? 40);
  const rounds = o.rounds ?? Number(process.env.BENCH_ROUNDS ?? 5);
  const smtp = await startSmtp();
  const sides: SeededGantry[] = [];
  try {
    sides.push(await seededGantry('1x', 1, smtp, o.databaseUrl));
    sides.push(await seededGantry('10x', 10, smtp, o.databaseUrl));
    // PGlite gathers the planner's statistics a moment after writes (it has no autovacuum)
    if (!o.databaseUrl) await new Promise((r) => setTimeout(r, PGLITE_ANALYZE_MS));

    const endpoints = sides[0]!.endpoints;
    for (const side of sides) for (const [, p] of side.endpoints) for (let i = 0; i < 5; i++) await side.get(p); // warm-up
    // p95 per round, per endpoint, per side; within a round each list is asked of one side and of the other
    // request by request (the first of the two alternating), so a burst of load on the shared machine falls on both
    const perRound = endpoints.map(() => sides.map(() => [] as number[]));
    const mediansPerRound = endpoints.map(() => sides.map(() => [] as number[]));
    for (let r = 0; r < rounds; r++)
      for (const i of endpoints.keys()) {
        const ms = sides.map(() => [] as number[]);
        for (let k = 0; k < requests; k++)
          for (const s of (r + i + k) % 2 ? [1, 0] : [0, 1]) {
            const t = performance.now();
            await sides[s]!.get(sides[s]!.endpoints[i]![1]);
            ms[s]!.push(performance.now() - t);
          }
        for (const s of sides.keys()) {
          perRound[i]![s]!.push(p95(ms[s]!));
          mediansPerRound[i]![s]!.push(median(ms[s]!));
        }
      }
    return {
      database: o.databaseUrl ? 'PostgreSQL' : 'PGlite',
      lines: endpoints.map(([endpoint], i) => {
        const [at1, at10] = perRound[i]!;
        const [median1, median10] = mediansPerRound[i]!;
        return {
          endpoint,
          p95: spread(at1!),
          p95At10x: spread(at10!),
          growth: spread(at10!.map((ms, r) => ms / at1![r]!)),
          medianGrowth: spread(median10!.map((ms, r) => ms / median1![r]!)),
        };
      }),
    };
  } finally {
    for (const side of sides) await side.close();
    await smtp.close();
  }
}

/** PGlite, then PostgreSQL. */
export const benchAllLists = (): Promise<ListsResult[]> => onEachDatabase((databaseUrl) => benchLists({ databaseUrl }));

/** Every list's p95 growth from 1× to 10× history (median over rounds of the per-round ratio; flat is about 1): their median and range. */
export function worstGrowth(results: ListsResult[]): Spread | undefined {
  const ratios = results.flatMap((r) => r.lines.map((l) => l.growth.median));
  return ratios.length ? spread(ratios) : undefined;
}

/** Every list's median growth from 1× to 10× history (median over rounds of the per-round ratio): their median and range. */
export function worstMedianGrowth(results: ListsResult[]): Spread | undefined {
  const ratios = results.flatMap((r) => r.lines.map((l) => l.medianGrowth.median));
  return ratios.length ? spread(ratios) : undefined;
}

/** The slowest list's p95 (median and range over rounds) at 10× history: the budget line. */
export function worstList(results: ListsResult[]): Spread | undefined {
  const all = results.flatMap((r) => r.lines.map((l) => l.p95At10x));
  return all.length ? all.reduce((a, b) => (b.median > a.median ? b : a)) : undefined;
}

export function printLists(results: ListsResult[]) {
  table(
    results.flatMap((r) =>
      r.lines.map((l) => ({
        [`list (${PROJECTS} projects, ${PROJECTS * PIPELINES_PER_PROJECT} pipelines)`]: `${l.endpoint} on ${r.database}`,
        'p95 ms, 10,000 builds': fmtSpread(l.p95, 1),
        'p95 ms, 100,000 builds': fmtSpread(l.p95At10x, 1),
        'p95 10× ÷ 1×, per round': fmtSpread(l.growth, 2),
        'median 10× ÷ 1×': fmtSpread(l.medianGrowth, 2),
      })),
    ),
  );
}

if (isMain(import.meta.url)) {
  benchAllLists().then(
    (r) => {
      printLists(r);
      process.exit(0);
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
