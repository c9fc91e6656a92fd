/**
 * p95 latency of the list endpoints at scale (issue 14): one member of 200 projects holding 2,000
 * pipelines and 10,000 builds, 400 environments with 2,000 deployments and 1,000 notifications of the
 * member (1× history), then the same after the history grows tenfold (100,000 builds, 20,000
 * deployments, 10,000 notifications): projects, pipelines, builds pages, timeline, environments,
 * deployment history, components, members and notifications;
 * every list must answer within its budget and stay flat as history grows. The data is seeded
 * straight into the running Gantry's database through its stores (bulk build rows through the
 * builds table), on PGlite and on a throwaway PostgreSQL.
 *   npx tsx bench/lists.ts   (BENCH_REQUESTS per round, BENCH_ROUNDS, BENCH_DATABASE_URL)
 */
import { freePort, startSmtp } from '@gantry/test-support';
import { startBenchGantry } from './src/bench-gantry.js';
import { createGitAccountsStore } from '../apps/server/src/modules/git-accounts/git-accounts.store.js';
import { createPipelinesStore } from '../apps/server/src/modules/pipelines/pipelines.store.js';
import { builds as buildsTable, buildSteps } from '../apps/server/src/modules/builds/builds.tables.js';
import { stages as stagesTable } from '../apps/server/src/modules/stages/stages.tables.js';
import { deployments as deploymentsTable } from '../apps/server/src/modules/deployments/deployments.tables.js';
import { notifications as notificationsTable } from '../apps/server/src/modules/notifications/notifications.tables.js';
import { benchUser, postJson } from './src/bench-user.js';
import { fmt, fmtSpread, isMain, spread, table, type Spread } from './src/load.js';
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

export async function benchLists(o: { databaseUrl?: string; requests?: number; rounds?: number } = {}): Promise<ListsResult> {
  const requests = o.requests ?? Number(process.env.BENCH_REQUESTS ?? 40);
  const rounds = o.rounds ?? Number(process.env.BENCH_ROUNDS ?? 5);
  const smtp = await startSmtp();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const gantry = await startBenchGantry('lists', {
    PORT: String(port),
    PUBLIC_URL: url,
    SMTP_URL: smtp.url,
    DATABASE_URL: o.databaseUrl ?? '',
  });
  try {
    const post = (p: string, body: unknown, token?: string) => postJson(url, p, body, token);
    const { idToken } = await benchUser(url, smtp, 'lists');
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
    // Builds numbered from..to of every pipeline, finished, in bulk (ids generated here so steps can follow).
    // The measured pipeline (the first) has ten times the history of the others, so that its 5th page
    // exists at 1× too: at 1× ÷ 10× the same page is compared, not an empty one with a full one.
    const seedBuilds = async (from: number, to: number) => {
      const rows: (typeof buildsTable.$inferInsert)[] = [];
      for (const [i, { projectId, pipelineId }] of pipelineIds.entries())
        for (let n = i ? from : (from - 1) * MEASURED_PIPELINE_HISTORY + 1; n <= (i ? to : to * MEASURED_PIPELINE_HISTORY); n++) {
          const start = new Date(t0 + n * 3600_000 + rows.length);
          rows.push({
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
      for (let i = 0; i < rows.length; i += 1000) {
        const chunk = rows.slice(i, i + 1000);
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
      }
    };

    // Environments of every project, seeded once; their deployments grow with the history like the builds.
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
    const inChunks = async <T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) => {
      for (let i = 0; i < rows.length; i += 1000) await insert(rows.slice(i, i + 1000));
    };
    // Deployments numbered from..to of every environment, finished; and the bench user's notifications for one build in BUILDS_PER_NOTIFICATION.
    const seedDeploymentsAndNotifications = async (from: number, to: number) => {
      const deployments: (typeof deploymentsTable.$inferInsert)[] = [];
      for (const { stageId, projectId } of stageIds)
        for (let n = from; n <= to; n++) {
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
      const notifications: (typeof notificationsTable.$inferInsert)[] = [];
      for (const [i, { projectId, pipelineId }] of pipelineIds.entries())
        for (let n = from; n <= to; n++)
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
    };

    const [first] = pipelineIds;
    const ap = `/ms-ap/projects/${first!.projectId}`;
    const firstStage = stageIds.find((s) => s.projectId === first!.projectId)!.stageId;
    const engine = `/ms-engine/projects/${first!.projectId}`;
    const endpoints: [string, string][] = [
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
    ];
    const measure = async () => {
      const perEndpoint = endpoints.map(() => [] as number[]);
      // Warm-up; the first call may meet a keep-alive socket the server closed while seeding ran: once more then.
      const get = (p: string) => fetch(url + p, { headers }).catch(() => fetch(url + p, { headers }));
      for (const [, p] of endpoints) for (let i = 0; i < 5; i++) await get(p).then(json);
      for (let r = 0; r < rounds; r++)
        for (const [i, [, p]] of endpoints.entries()) {
          const ms: number[] = [];
          for (let k = 0; k < requests; k++) {
            const t = performance.now();
            await fetch(url + p, { headers }).then(json);
            ms.push(performance.now() - t);
          }
          perEndpoint[i]!.push(p95(ms));
        }
      return perEndpoint.map(spread);
    };

    const settle = () => (o.databaseUrl ? undefined : new Promise((r) => setTimeout(r, PGLITE_ANALYZE_MS)));
    await seedBuilds(1, BUILDS_PER_PIPELINE);
    await seedDeploymentsAndNotifications(1, DEPLOYMENTS_PER_STAGE);
    await settle();
    const at1 = await measure();
    await seedBuilds(BUILDS_PER_PIPELINE + 1, BUILDS_PER_PIPELINE * 10);
    await seedDeploymentsAndNotifications(DEPLOYMENTS_PER_STAGE + 1, DEPLOYMENTS_PER_STAGE * 10);
    await settle();
    const at10 = await measure();
    return {
      database: o.databaseUrl ? 'PostgreSQL' : 'PGlite',
      lines: endpoints.map(([endpoint], i) => ({ endpoint, p95: at1[i]!, p95At10x: at10[i]! })),
    };
  } finally {
    await gantry.close();
    await smtp.close();
  }
}

/** PGlite, then PostgreSQL. */
export const benchAllLists = (): Promise<ListsResult[]> => onEachDatabase((databaseUrl) => benchLists({ databaseUrl }));

/** The largest growth of a list's p95 median from 1× to 10× history (flat is about 1). */
export function worstGrowth(results: ListsResult[]): Spread | undefined {
  const ratios = results.flatMap((r) => r.lines.map((l) => l.p95At10x.median / l.p95.median));
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
        '10× ÷ 1×': fmt(l.p95At10x.median / l.p95.median, 2),
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
