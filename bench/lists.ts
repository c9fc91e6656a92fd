/**
 * p95 latency of the list endpoints at scale (issue 14): one member of 200 projects holding 2,000
 * pipelines and 10,000 builds (1× history), then the same after the builds grow to 100,000 (10×):
 * every list must answer within its budget and stay flat as history grows. The data is seeded
 * straight into the running Gantry's database through its stores (bulk build rows through the
 * builds table), on PGlite and on a throwaway PostgreSQL.
 *   npx tsx bench/lists.ts   (BENCH_REQUESTS per round, BENCH_ROUNDS, BENCH_DATABASE_URL)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, linkFromMail, startSmtp } from '@gantry/test-support';
import { startGantry } from '../apps/server/src/server.js';
import { createGitAccountsStore } from '../apps/server/src/modules/git-accounts/git-accounts.store.js';
import { createPipelinesStore } from '../apps/server/src/modules/pipelines/pipelines.store.js';
import { builds as buildsTable, buildSteps } from '../apps/server/src/modules/builds/builds.tables.js';
import { fmt, fmtSpread, isMain, spread, table, type Spread } from './src/load.js';
import { onEachDatabase } from './src/databases.js';

const PROJECTS = 200;
const PIPELINES_PER_PROJECT = 10; // 2,000 pipelines
const BUILDS_PER_PIPELINE = 5; // 10,000 builds at 1×
const STEPS = ['Clone', 'Build', 'Test'];

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
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-bench-lists-'));
  const smtp = await startSmtp();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const gantry = await startGantry({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    GANTRY_DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    DATABASE_URL: o.databaseUrl ?? '',
    GANTRY_LOG_LEVEL: 'warn',
    GANTRY_RATE_LIMIT: 'false',
  });
  try {
    const post = (p: string, body: unknown, token?: string) =>
      fetch(url + p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      }).then(json);
    const email = `lists-${Date.now()}-${process.pid}@example.com`;
    await post('/ms-usermanagement/auth/sign-up', { username: email, password: 'Bench1234', firstName: 'Bench', lastName: 'Lists' });
    const code = decodeURIComponent(
      linkFromMail(await smtp.waitFor(email), '/account/verify/')
        .split('/')
        .pop()!,
    );
    await post('/ms-usermanagement/auth/activate', { username: email, code });
    const { idToken } = await post('/ms-usermanagement/auth/login', { username: email, password: 'Bench1234' });
    const headers = { authorization: `Bearer ${idToken}` };

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
    const seedBuilds = async (from: number, to: number) => {
      const rows: (typeof buildsTable.$inferInsert)[] = [];
      for (const { projectId, pipelineId } of pipelineIds)
        for (let n = from; n <= to; n++) {
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

    const [first] = pipelineIds;
    const ap = `/ms-ap/projects/${first!.projectId}`;
    const endpoints: [string, string][] = [
      ['GET /ms-project/projects (200 projects)', '/ms-project/projects'],
      ['GET …/pipelines (10 pipelines with their latest build)', `${ap}/pipelines`],
      ['GET …/pipelines/:id/builds, first page', `${ap}/pipelines/${first!.pipelineId}/builds?limit=10&offset=0`],
      ['GET …/pipelines/:id/builds, 5th page', `${ap}/pipelines/${first!.pipelineId}/builds?limit=10&offset=40`],
      ['GET …/timeline (newest builds of the project)', `/ms-elasticsearch/projects/${first!.projectId}/timeline`],
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

    await seedBuilds(1, BUILDS_PER_PIPELINE);
    const at1 = await measure();
    await seedBuilds(BUILDS_PER_PIPELINE + 1, BUILDS_PER_PIPELINE * 10);
    const at10 = await measure();
    return {
      database: o.databaseUrl ? 'PostgreSQL' : 'PGlite',
      lines: endpoints.map(([endpoint], i) => ({ endpoint, p95: at1[i]!, p95At10x: at10[i]! })),
    };
  } finally {
    await gantry.close();
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** PGlite, then PostgreSQL. */
export const benchAllLists = (): Promise<ListsResult[]> => onEachDatabase((databaseUrl) => benchLists({ databaseUrl }));

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
