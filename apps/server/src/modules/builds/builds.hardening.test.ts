import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { MAX_SPEC_BYTES, SPEC_TOO_LARGE_MESSAGE } from '@gantry/contracts';
import { createTestApp, registerUser, createProject, bearer, until, type TestApp, insertGitAccount } from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import { webhookDeliveries } from './builds.tables.js';

/** The security issue's input findings on the pipelines/builds side: specs, branch names, replayed pushes. */
const SPEC = 'steps:\n  Hello:\n    commands:\n      - echo hi\n';
/** A valid spec of about `bytes` bytes: one step with many commands. */
const specOf = (bytes: number) => {
  let s = 'steps:\n  Build:\n    commands:\n';
  for (let i = 0; s.length < bytes - 40; i++) s += `      - echo "line ${i}"\n`;
  return s;
};

let t: TestApp;
let git: ReturnType<typeof createLocalGit>;
let token: string;
let projectId: string;
let gitAccountId: string;
const repos: Record<string, string> = {};

const api = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-ap/projects/${projectId}${url}`, headers: bearer(token), payload });

async function createPipeline(name: string, repo: string, extra: object = {}) {
  const res = await api('POST', '/pipelines', { name, gitAccountId, repositoryUrl: repos[repo], branchFilter: '.*', ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().pipelineId as string;
}

const buildsOf = async (pipelineId: string) =>
  (await api('GET', `/pipelines/${pipelineId}/builds?limit=100`)).json().builds as {
    id: string;
    status: string;
    branch: string;
    errorMessage: string | null;
    steps: unknown[];
  }[];

beforeAll(async () => {
  git = createLocalGit();
  repos.kept = git.createRepo('acme/kept', { 'README.md': 'spec kept in Gantry' }).url;
  repos.app = git.createRepo('acme/app', { 'gantry.yaml': SPEC }).url;
  repos.huge = git.createRepo('acme/huge', { 'gantry.yaml': specOf(MAX_SPEC_BYTES + 1024) }).url;
  t = await createTestApp({}, { overrides: { pipelines: { gitAccess: git.access } } });
  token = (await registerUser(t, 'hardening@example.com')).idToken;
  projectId = await createProject(t, token, 'Hardening');
  const row = await insertGitAccount(t, projectId);
  gitAccountId = row!.id;
});
afterAll(async () => {
  await t?.close();
  git?.close();
});

describe('pipeline spec input', () => {
  let kept: string;
  beforeAll(async () => {
    kept = await createPipeline('kept-spec', 'kept', { automatedTrigger: false });
  });

  it('answers a self-referencing YAML merge key with 400 "Not a valid Yaml File"', async () => {
    for (const yaml of ['a: &a\n  <<: *a\n', 'steps: &s\n  X: *s\n']) {
      const res = await api('PUT', `/pipelines/${kept}/spec`, { gantryYaml: yaml });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe('Not a valid Yaml File');
    }
  });

  it('refuses a spec over 256 KB with 400 and a clear message, quickly', async () => {
    const started = Date.now();
    const res = await api('PUT', `/pipelines/${kept}/spec`, { gantryYaml: specOf(4 * 1024 * 1024) });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(SPEC_TOO_LARGE_MESSAGE);
    expect(res.json().fields.gantryYaml).toEqual([SPEC_TOO_LARGE_MESSAGE]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('keeps a spec just under the cap', async () => {
    const yaml = specOf(MAX_SPEC_BYTES - 64);
    const res = await api('PUT', `/pipelines/${kept}/spec`, { gantryYaml: yaml });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  });

  it('fails a build of an over-size gantry.yaml of the repository with a clear build error', async () => {
    const id = await createPipeline('huge-spec', 'huge');
    // the trigger answers at once; the spec is read in the run, which fails the build with the reason
    const manual = await api('POST', `/pipelines/${id}/builds`, { ref: 'refs/heads/main' });
    expect(manual.statusCode, manual.body).toBe(201);
    const byHand = await until(
      async () => (await buildsOf(id)).find((b) => b.id === manual.json().buildId),
      (b) => b?.status === 'FAILED',
      'the manual build to fail',
    );
    expect(byHand!.errorMessage).toContain(SPEC_TOO_LARGE_MESSAGE);
    expect(byHand!.steps).toEqual([]);

    const row = await t.app.services.pipelines.get(projectId, id);
    const secret = t.app.services.pipelines.webhookSecret(row)!;
    const sha = git.commit('acme/huge', { 'src/a.js': 'x' }, 'push');
    const body = JSON.stringify({ sha, message: 'push', author: 'Dev', branch: 'main', changedFiles: ['src/a.js'] });
    const hook = await t.app.inject({
      method: 'POST',
      url: `/ms-ap/webhooks/github/${id}`,
      headers: { 'content-type': 'application/json', 'x-test-signature': git.sign(secret, body) },
      payload: body,
    });
    expect(hook.statusCode, hook.body).toBe(202);
    const failed = await until(
      async () => (await buildsOf(id)).find((b) => b.id === hook.json().buildId),
      (b) => b?.status === 'FAILED',
      'the pushed build to fail',
    );
    expect(failed!.errorMessage).toContain(SPEC_TOO_LARGE_MESSAGE);
    const stored = await t.app.services.database.executeSql(`select length(spec_yaml) as n from builds where id = '${failed!.id}'`);
    expect(stored.rows[0]).toEqual({ n: null }); // the oversize text is not kept with the build
  });
});

describe('branch names from outside', () => {
  let id: string;
  let secret: string;
  beforeAll(async () => {
    id = await createPipeline('branches', 'app');
    secret = t.app.services.pipelines.webhookSecret(await t.app.services.pipelines.get(projectId, id))!;
  });

  it.each(['a..b', 'a b', '-x', 'x.lock', 'x/', 'a//b', 'a@{1}', 'a~1', 'a\u0001b'])('refuses a manual trigger of %j with 400', async (branch) => {
    const res = await api('POST', `/pipelines/${id}/builds`, { ref: `refs/heads/${branch}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/branch name/i);
  });

  it('ignores a push to an invalid branch name: nothing starts', async () => {
    const before = (await buildsOf(id)).length;
    for (const branch of ['a..b', '-x', 'main\nevil', 'x.lock']) {
      const body = JSON.stringify({ sha: 'a'.repeat(40), message: 'm', author: 'Dev', branch, changedFiles: ['a'] });
      const res = await t.app.inject({
        method: 'POST',
        url: `/ms-ap/webhooks/github/${id}`,
        headers: { 'content-type': 'application/json', 'x-test-signature': git.sign(secret, body) },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json()).toMatchObject({ triggered: false, buildId: null });
      expect(res.json().reason).toMatch(/branch name/i);
    }
    expect((await buildsOf(id)).length).toBe(before);
  });
});

describe('replayed push webhooks', () => {
  let id: string;
  let secret: string;
  let sha: string;
  beforeAll(async () => {
    id = await createPipeline('replays', 'app');
    secret = t.app.services.pipelines.webhookSecret(await t.app.services.pipelines.get(projectId, id))!;
    sha = git.commit('acme/app', { 'src/b.js': 'x' }, 'replay me');
  });
  const deliver = (headers: Record<string, string>) => {
    const body = JSON.stringify({ sha, message: 'replay me', author: 'Dev', branch: 'main', changedFiles: ['src/b.js'] });
    return t.app.inject({
      method: 'POST',
      url: `/ms-ap/webhooks/github/${id}`,
      headers: { 'content-type': 'application/json', 'x-test-signature': git.sign(secret, body), ...headers },
      payload: body,
    });
  };

  it('starts one build for the same signed delivery sent twice', async () => {
    const before = (await buildsOf(id)).length;
    const first = await deliver({ 'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958' });
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json().triggered).toBe(true);
    const again = await deliver({ 'x-github-delivery': '72d3162e-cc78-11e3-81ab-4c9367dc0958' });
    expect([200, 202]).toContain(again.statusCode);
    expect(again.json()).toMatchObject({ triggered: false, buildId: null, duplicate: true });
    expect(again.json().reason).toMatch(/duplicate/i);
    expect((await buildsOf(id)).length).toBe(before + 1);
  });

  it('tells deliveries apart by their id, and processes a push without one as before', async () => {
    const before = (await buildsOf(id)).length;
    expect((await deliver({ 'x-github-delivery': 'another-delivery' })).json().triggered).toBe(true);
    expect((await deliver({})).json().triggered).toBe(true);
    expect((await deliver({})).json().triggered).toBe(true);
    expect((await buildsOf(id)).length).toBe(before + 3);
  });

  it('forgets deliveries older than 30 days', async () => {
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    await t.app.services.database.db.insert(webhookDeliveries).values({ provider: 'github', deliveryId: 'ancient', pipelineId: id, receivedAt: old });
    await t.app.services.builds.pruneWebhookDeliveries();
    const rows = await t.app.services.database.executeSql(`select delivery_id from webhook_deliveries where delivery_id = 'ancient'`);
    expect(rows.rows).toEqual([]);
  });
});
