import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, addMember, bearer, insertGitAccount, pipelineRow, type TestApp } from '../../../test/helpers.js';
import { builds, buildSteps } from '../builds/builds.tables.js';
import { pipelines } from './pipelines.tables.js';

// The pipeline list and the build list page through bounded, indexed queries: pages by cursor (and
// builds by offset too), the last build of each pipeline found without reading its history.
let t: TestApp;
let owner: { idToken: string };
let reader: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let otherProjectId: string;
let pipelineId: string;
let otherPipelineId: string;
let buildIds: string[]; // newest first

const get = (url: string, token = reader.idToken) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const ap = (project: string) => `/ms-ap/projects/${project}`;

/** `count` pipelines named p-001…, and `buildsEach` finished builds of each, one hour apart (newest: the highest number). */
async function seed(project: string, count: number, buildsEach: number) {
  const db = t.app.services.database.db;
  const account = await insertGitAccount(t, project);
  const rows = await db
    .insert(pipelines)
    .values(Array.from({ length: count }, (_, i) => pipelineRow(project, account.id, { name: `p-${String(i + 1).padStart(3, '0')}` })))
    .returning();
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  const made = await db
    .insert(builds)
    .values(
      rows.flatMap((p) =>
        Array.from({ length: buildsEach }, (_, n) => ({
          projectId: project,
          pipelineId: p.id,
          number: n + 1,
          status: 'SUCCEEDED' as const,
          branch: 'main',
          trigger: 'manual' as const,
          startDate: new Date(t0 + n * 3600_000),
          stopDate: new Date(t0 + n * 3600_000 + 60_000),
          createdAt: new Date(t0 + n * 3600_000),
        })),
      ),
    )
    .returning({ id: builds.id, pipelineId: builds.pipelineId, number: builds.number });
  await db.insert(buildSteps).values(made.map((b) => ({ buildId: b.id, name: 'Build', type: 'build', position: 0, status: 'SUCCEEDED' as const })));
  return { pipelines: rows, builds: made };
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t, 'paging-owner@example.com');
  outsider = await registerUser(t, 'paging-outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Paging');
  otherProjectId = await createProject(t, outsider.idToken, 'Elsewhere');
  reader = await addMember(t, owner.idToken, projectId, 'paging-reader@example.com', 'read');
  const mine = await seed(projectId, 7, 25);
  const theirs = await seed(otherProjectId, 2, 3);
  pipelineId = mine.pipelines[0]!.id;
  otherPipelineId = theirs.pipelines[0]!.id;
  buildIds = mine.builds
    .filter((b) => b.pipelineId === pipelineId)
    .sort((a, b) => b.number - a.number)
    .map((b) => b.id);
});
afterAll(async () => {
  await t?.close();
});

describe('pipeline list paging', () => {
  it('answers every pipeline by name with its newest build when one page holds them', async () => {
    const res = await get(`${ap(projectId)}/pipelines`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.nextCursor).toBeNull();
    expect(body.pipelines.map((p: { name: string }) => p.name)).toEqual(['p-001', 'p-002', 'p-003', 'p-004', 'p-005', 'p-006', 'p-007']);
    expect(body.pipelines.every((p: { latestBuild: { number: number } }) => p.latestBuild.number === 25)).toBe(true);
    expect(body.pipelines[0].latestBuild.id).toBe(buildIds[0]);
  });

  it('pages by cursor: the first page, the next one after its last name, the end', async () => {
    const first = (await get(`${ap(projectId)}/pipelines?limit=3`)).json();
    expect(first.pipelines.map((p: { name: string }) => p.name)).toEqual(['p-001', 'p-002', 'p-003']);
    expect(first.nextCursor).toBe('p-003');
    const second = (await get(`${ap(projectId)}/pipelines?limit=3&cursor=${first.nextCursor}`)).json();
    expect(second.pipelines.map((p: { name: string }) => p.name)).toEqual(['p-004', 'p-005', 'p-006']);
    const last = (await get(`${ap(projectId)}/pipelines?limit=3&cursor=${second.nextCursor}`)).json();
    expect(last).toMatchObject({ nextCursor: null, pipelines: [{ name: 'p-007' }] });
  });

  it('refuses a page size out of bounds', async () => {
    expect((await get(`${ap(projectId)}/pipelines?limit=0`)).statusCode).toBe(400);
    expect((await get(`${ap(projectId)}/pipelines?limit=501`)).statusCode).toBe(400);
    expect((await get(`${ap(projectId)}/pipelines?limit=many`)).statusCode).toBe(400);
  });

  it("never shows another project's pipelines, and hides the list from a non-member", async () => {
    const mine = (await get(`${ap(projectId)}/pipelines?cursor=p-000`)).json().pipelines;
    expect(mine.map((p: { id: string }) => p.id)).not.toContain(otherPipelineId);
    expect((await get(`${ap(otherProjectId)}/pipelines`)).statusCode).toBe(404);
    expect((await get(`${ap(projectId)}/pipelines`, outsider.idToken)).statusCode).toBe(404);
  });
});

describe('build list paging', () => {
  const builds = (query: string, token?: string) => get(`${ap(projectId)}/pipelines/${pipelineId}/builds?${query}`, token);
  const ids = async (query: string) => (await builds(query)).json().builds.map((b: { id: string }) => b.id) as string[];

  it('pages newest first by cursor: the first page, the next after its last build, a short last page', async () => {
    expect(await ids('limit=10')).toEqual(buildIds.slice(0, 10));
    expect(await ids(`limit=10&cursor=${buildIds[9]}`)).toEqual(buildIds.slice(10, 20));
    expect(await ids(`limit=10&cursor=${buildIds[19]}`)).toEqual(buildIds.slice(20));
    expect(await ids(`limit=10&cursor=${buildIds.at(-1)}`)).toEqual([]);
  });

  it('pages by offset as the spec says, in the same order', async () => {
    expect(await ids('limit=10&offset=10')).toEqual(buildIds.slice(10, 20));
    expect(await ids('limit=10&offset=30')).toEqual([]);
  });

  it('answers each build with its steps', async () => {
    const [b] = (await builds('limit=1')).json().builds;
    expect(b).toMatchObject({ id: buildIds[0], number: 25, steps: [{ name: 'Build', status: 'SUCCEEDED' }] });
  });

  it('refuses a page size or cursor out of bounds', async () => {
    expect((await builds('limit=0')).statusCode).toBe(400);
    expect((await builds('limit=101')).statusCode).toBe(400);
    expect((await builds('cursor=not-a-build')).statusCode).toBe(400);
  });

  it('never pages from a build of another pipeline or project, and hides the list from a non-member', async () => {
    const theirs = (await get(`${ap(otherProjectId)}/pipelines/${otherPipelineId}/builds`, outsider.idToken)).json().builds;
    expect(await ids(`cursor=${theirs[0].id}`)).toEqual([]);
    expect((await get(`${ap(projectId)}/pipelines/${otherPipelineId}/builds`)).statusCode).toBe(404);
    expect((await builds('limit=10', outsider.idToken)).statusCode).toBe(404);
  });
});
