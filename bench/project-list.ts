/**
 * Requests per second of an authenticated GET /ms-project/projects (real Gantry: auth, membership
 * query on PGlite, zod serialisation) against a bare Fastify route answering the same JSON, on this
 * machine. The load comes from autocannon in a second process over loopback.
 *   npx tsx bench/project-list.ts   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_PROJECTS, BENCH_DATABASE_URL)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { freePort, linkFromMail, startSmtp } from '@gantry/test-support';
import { startGantry } from '../apps/server/src/server.js';
import { fmt, isMain, load, table, type LoadResult } from './src/load.js';

export interface ProjectListResult {
  gantry: LoadResult;
  bare: LoadResult;
  projects: number;
  ratio: number;
}

async function json(res: Response) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

export async function benchProjectList(o: { seconds?: number; connections?: number; projects?: number } = {}): Promise<ProjectListResult> {
  const seconds = o.seconds ?? Number(process.env.BENCH_SECONDS ?? 10);
  const connections = o.connections ?? Number(process.env.BENCH_CONNECTIONS ?? 10);
  const projectCount = o.projects ?? Number(process.env.BENCH_PROJECTS ?? 5);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-bench-'));
  const smtp = await startSmtp();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const gantry = await startGantry({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    GANTRY_DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    // PGlite in the temp data dir, or an existing PostgreSQL database (BENCH_DATABASE_URL).
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    GANTRY_LOG_LEVEL: 'warn',
    GANTRY_RATE_LIMIT: 'false',
  });
  const bare = Fastify({ logger: false });
  try {
    const post = (p: string, body: unknown, token?: string) =>
      fetch(url + p, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      }).then(json);
    const email = `bench-${Date.now()}-${process.pid}@example.com`;
    await post('/ms-usermanagement/auth/sign-up', { username: email, password: 'Bench1234', firstName: 'Bench', lastName: 'Mark' });
    const mail = await smtp.waitFor(email);
    const code = decodeURIComponent(linkFromMail(mail, '/account/verify/').split('/').pop()!);
    await post('/ms-usermanagement/auth/activate', { username: email, code });
    const { idToken } = await post('/ms-usermanagement/auth/login', { username: email, password: 'Bench1234' });
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
    const gantryResult = await load(`${url}/ms-project/projects`, { seconds, connections, headers });
    const bareResult = await load(`http://127.0.0.1:${barePort}/projects`, { seconds, connections });
    if (gantryResult.non2xx || gantryResult.errors) throw new Error(`Gantry answered ${gantryResult.non2xx} non-2xx and ${gantryResult.errors} errors`);
    return { gantry: gantryResult, bare: bareResult, projects: projectCount, ratio: gantryResult.requestsPerSecond / bareResult.requestsPerSecond };
  } finally {
    await bare.close();
    await gantry.close();
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function printProjectList(r: ProjectListResult) {
  table([
    {
      route: `GET /ms-project/projects (Gantry, ${r.projects} projects)`,
      'req/s': fmt(r.gantry.requestsPerSecond),
      'p50 ms': fmt(r.gantry.latencyP50Ms, 1),
      'p99 ms': fmt(r.gantry.latencyP99Ms, 1),
      requests: r.gantry.requests,
    },
    {
      route: 'GET /projects (bare Fastify, same body)',
      'req/s': fmt(r.bare.requestsPerSecond),
      'p50 ms': fmt(r.bare.latencyP50Ms, 1),
      'p99 ms': fmt(r.bare.latencyP99Ms, 1),
      requests: r.bare.requests,
    },
  ]);
  console.log(`ratio Gantry / bare: ${fmt(r.ratio, 3)} (${fmt(r.ratio * 100, 1)} % of a bare route's throughput)`);
}

if (isMain(import.meta.url)) {
  benchProjectList().then(printProjectList, (err) => {
    console.error(err);
    process.exit(1);
  });
}
