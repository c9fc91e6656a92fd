/**
 * Requests per second of an authenticated GET /ms-project/projects (real Gantry: auth, membership,
 * plans and counts, zod serialisation) against a bare Fastify route answering the same JSON, on this
 * machine, on PGlite and on a throwaway PostgreSQL. The load comes from autocannon in a second process
 * over loopback; Gantry and the bare route take turns (BENCH_ROUNDS rounds, the first of the two
 * alternating), so both see the same machine load, and the ratio is taken per round.
 *   npx tsx bench/project-list.ts   (BENCH_SECONDS per turn, BENCH_ROUNDS, BENCH_CONNECTIONS, BENCH_PROJECTS, BENCH_DATABASE_URL)
 */
import Fastify from 'fastify';
import { freePort, startSmtp } from '@gantry/test-support';
import { startBenchGantry } from './src/bench-gantry.js';
import { fmtSpread, isMain, load, spread, table, type Spread } from './src/load.js';
import { onEachDatabase } from './src/databases.js';
import { benchUser, postJson } from './src/bench-user.js';

export interface ProjectListResult {
  database: 'PGlite' | 'PostgreSQL';
  gantry: Spread;
  bare: Spread;
  gantryP99Ms: Spread;
  projects: number;
  ratio: Spread;
}

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export async function benchProjectList(
  o: { seconds?: number; rounds?: number; connections?: number; projects?: number; databaseUrl?: string } = {},
): Promise<ProjectListResult> {
  const seconds = o.seconds ?? Number(process.env.BENCH_SECONDS ?? 3);
  const rounds = o.rounds ?? Number(process.env.BENCH_ROUNDS ?? 5);
  const connections = o.connections ?? Number(process.env.BENCH_CONNECTIONS ?? 10);
  const projectCount = o.projects ?? Number(process.env.BENCH_PROJECTS ?? 5);
  const smtp = await startSmtp();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const gantry = await startBenchGantry('list', {
    PORT: String(port),
    PUBLIC_URL: url,
    SMTP_URL: smtp.url,
    // PGlite in the temp data dir, or an existing PostgreSQL database (BENCH_DATABASE_URL).
    DATABASE_URL: o.databaseUrl ?? '',
  });
  const bare = Fastify({ logger: false });
  try {
    const post = (p: string, body: unknown, token?: string) => postJson(url, p, body, token);
    const { idToken } = await benchUser(url, smtp, 'bench');
    for (let i = 0; i < projectCount; i++)
      await post('/ms-project/projects', { name: `Project ${i + 1}`, description: `Bench project ${i + 1}`, paymentPlanId: 'STARTER' }, idToken);
    const headers = { authorization: `Bearer ${idToken}` };
    const list = await fetch(`${url}/ms-project/projects`, { headers }).then(json);
    if (list.projects?.length !== projectCount) throw new Error(`expected ${projectCount} projects, got ${JSON.stringify(list).slice(0, 200)}`);

    // The bare route answers the very same body, so the difference is Gantry's per-request work.
    const body = JSON.stringify(list);
    bare.get('/projects', async (_req, reply) => reply.header('content-type', 'application/json; charset=utf-8').send(body));
    const barePort = await freePort();
    await bare.listen({ port: barePort, host: '127.0.0.1' });

    // Warm up both (JIT, connection pools), then measure.
    await load(`${url}/ms-project/projects`, { seconds: 2, connections, headers });
    await load(`http://127.0.0.1:${barePort}/projects`, { seconds: 2, connections });
    const turns: { gantry: number; bare: number; p99: number }[] = [];
    const gantryTurn = async () => {
      const g = await load(`${url}/ms-project/projects`, { seconds, connections, headers });
      if (g.non2xx || g.errors) throw new Error(`Gantry answered ${g.non2xx} non-2xx and ${g.errors} errors`);
      return g;
    };
    const bareTurn = () => load(`http://127.0.0.1:${barePort}/projects`, { seconds, connections });
    for (let i = 0; i < rounds; i++) {
      // which of the two goes first alternates too, so neither always meets what the other left behind
      const [g, b] =
        i % 2 ? await bareTurn().then(async (b) => [await gantryTurn(), b] as const) : await gantryTurn().then(async (g) => [g, await bareTurn()] as const);
      turns.push({ gantry: g.requestsPerSecond, bare: b.requestsPerSecond, p99: g.latencyP99Ms });
    }
    return {
      database: o.databaseUrl ? 'PostgreSQL' : 'PGlite',
      gantry: spread(turns.map((t) => t.gantry)),
      bare: spread(turns.map((t) => t.bare)),
      gantryP99Ms: spread(turns.map((t) => t.p99)),
      projects: projectCount,
      ratio: spread(turns.map((t) => t.gantry / t.bare)),
    };
  } finally {
    await bare.close();
    await gantry.close();
    await smtp.close();
  }
}

/** PGlite, then PostgreSQL. */
export const benchProjectLists = (): Promise<ProjectListResult[]> => onEachDatabase((databaseUrl) => benchProjectList({ databaseUrl }));

export function printProjectList(results: ProjectListResult[]) {
  table(
    results.flatMap((r) => [
      {
        route: `GET /ms-project/projects (Gantry on ${r.database}, ${r.projects} projects)`,
        'req/s median (min–max)': fmtSpread(r.gantry),
        'p99 ms': fmtSpread(r.gantryP99Ms, 1),
        'ratio to bare': fmtSpread(r.ratio, 3),
      },
      { route: '  GET /projects (bare Fastify, same body, alternating)', 'req/s median (min–max)': fmtSpread(r.bare), 'p99 ms': '', 'ratio to bare': '' },
    ]),
  );
}

if (isMain(import.meta.url)) {
  benchProjectLists().then(printProjectList, (err) => {
    console.error(err);
    process.exit(1);
  });
}
