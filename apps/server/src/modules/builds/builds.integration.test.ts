import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { io as ioClient } from 'socket.io-client';
import { createTestApp, registerUser, createProject, addMember, bearer, until, type TestApp, insertGitAccount } from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import { REALTIME_PATH } from '../../platform/realtime.js';

const SPEC = `stages:
  - clone
  - build
steps:
  Clone:
    stage: clone
    type: git-clone
  Build:
    stage: build
    commands:
      - echo "building $GANTRY_PIPELINE_NAME on $GANTRY_BRANCH"
      - echo "secret is $API_KEY"
      - mkdir -p dist && cp app.txt dist/ && echo '{"version":"{{GANTRY_BRANCH}}"}' > out.json
    artifacts:
      files:
        bundle:
          - dist/
      json: out.json
`;

let t: TestApp;
let git: ReturnType<typeof createLocalGit>;
let owner: { idToken: string };
let reader: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let gitAccountId: string;
let repoUrl: string;

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-ap/projects/${projectId}${url}`, headers: bearer(token), payload });

/** Waits on the build's state, not on time: a loaded machine only makes it slower. */
const waitForBuild = (pipelineId: string, buildId: string) =>
  until(
    async () => (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`, owner.idToken)).json(),
    (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
    `build ${buildId} to finish`,
  );

async function logsOf(pipelineId: string, buildId: string, step: string) {
  const res = await api('GET', `/pipelines/${pipelineId}/builds/${buildId}/steps/${step}/logs`, owner.idToken);
  return res
    .json()
    .chunks.map((c: { text: string }) => c.text)
    .join('\n');
}

async function createPipeline(name: string, extra: object = {}) {
  const res = await api('POST', '/pipelines', owner.idToken, { name, gitAccountId, repositoryUrl: repoUrl, branchFilter: 'main', ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().pipelineId as string;
}

beforeAll(async () => {
  git = createLocalGit();
  repoUrl = git.createRepo('acme/app', { 'gantry.yaml': SPEC, 'app.txt': 'hello' }).url;
  git.createRepo('acme/bare', { 'README.md': 'no spec here' });
  t = await createTestApp({}, { overrides: { pipelines: { gitAccess: git.access } } });
  owner = await registerUser(t, 'pipe-owner@example.com');
  outsider = await registerUser(t, 'pipe-outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Pipes');
  reader = await addMember(t, owner.idToken, projectId, 'pipe-reader@example.com', 'read');
  const row = await insertGitAccount(t, projectId);
  gitAccountId = row!.id;
});
afterAll(async () => {
  await t?.close();
  git?.close();
});

describe('pipelines API', () => {
  it('creates a pipeline with defaults, seals sensitive variables and registers the push webhook', async () => {
    const id = await createPipeline('app-main', {
      environmentVariables: [
        { key: 'API_KEY', value: 'sup3rs3cret', sensitive: true },
        { key: 'MODE', value: 'ci', sensitive: false },
      ],
    });
    const res = await api('GET', `/pipelines/${id}`, reader.idToken);
    expect(res.json()).toMatchObject({ name: 'app-main', branchFilter: 'main', workDir: '/', automatedTrigger: true, latestBuild: null });
    expect(res.json().environmentVariables).toEqual([
      { key: 'API_KEY', value: '(sensitive)', sensitive: true },
      { key: 'MODE', value: 'ci', sensitive: false },
    ]);
    expect(git.hooks.some((h) => h.url.endsWith(`/ms-ap/webhooks/github/${id}`))).toBe(true);
    const raw = await t.app.services.database.executeSql(`select environment_variables::text as v from pipelines where id = '${id}'`);
    expect(raw.rows[0].v).not.toContain('sup3rs3cret');
  });

  it('validates the form, refuses duplicates, a read member and another project', async () => {
    const bad = await api('POST', '/pipelines', owner.idToken, { name: 'ab', gitAccountId: 'x', repositoryUrl: '', branchFilter: '(' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['branchFilter', 'gitAccountId', 'name', 'repositoryUrl']);
    expect(bad.json().fields.name).toEqual(['Pipeline name must be at least 3 characters']);
    expect((await api('POST', '/pipelines', owner.idToken, { name: 'app-main', gitAccountId, repositoryUrl: repoUrl })).statusCode).toBe(409);
    expect((await api('POST', '/pipelines', reader.idToken, { name: 'by-reader', gitAccountId, repositoryUrl: repoUrl })).statusCode).toBe(403);
    const other = await t.app.inject({ method: 'GET', url: `/ms-ap/projects/${projectId}/pipelines`, headers: bearer(outsider.idToken) });
    expect(other.statusCode).toBe(404);
    expect((await api('POST', '/pipelines', owner.idToken, { name: 'foreign-repo', gitAccountId, repositoryUrl: '/not/a/repo' })).statusCode).toBe(400);
  });

  it('keeps a sensitive value when an update sends the placeholder', async () => {
    const id = await createPipeline('keep-secret', { environmentVariables: [{ key: 'TOKEN', value: 'abc123xyz', sensitive: true }], automatedTrigger: false });
    const res = await api('PUT', `/pipelines/${id}`, owner.idToken, {
      gitAccountId,
      repositoryUrl: repoUrl,
      branchFilter: 'main|dev',
      environmentVariables: [{ key: 'TOKEN', value: '(sensitive)', sensitive: true }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().branchFilter).toBe('main|dev');
    const row = await t.app.services.pipelines.get(projectId, id);
    expect(t.app.services.pipelines.variablesForBuild(row).env.TOKEN).toBe('abc123xyz');
    expect((await api('PUT', `/pipelines/${id}`, reader.idToken, { gitAccountId, repositoryUrl: repoUrl, branchFilter: 'x' })).statusCode).toBe(403);
  });

  it('a gantry.yaml only on another branch than the one shown: the spec says it is the default kept in Gantry, for that branch', async () => {
    const id = await createPipeline('spec-other-branch', { automatedTrigger: false, branchFilter: 'release' });
    const spec = (await api('GET', `/pipelines/${id}/spec`, reader.idToken)).json();
    expect(spec).toMatchObject({ sourceCode: false, branch: 'release', isDefault: true });
    expect(spec.gantryYaml).not.toBe(SPEC);
  });

  it('shows the repository spec read-only, and keeps an editable one in Gantry otherwise', async () => {
    const fromRepo = await createPipeline('spec-repo', { automatedTrigger: false });
    expect((await api('GET', `/pipelines/${fromRepo}/spec`, reader.idToken)).json()).toEqual({
      sourceCode: true,
      gantryYaml: SPEC,
      specFile: 'gantry.yaml',
      branch: 'main',
    });
    expect((await api('PUT', `/pipelines/${fromRepo}/spec`, owner.idToken, { gantryYaml: SPEC })).statusCode).toBe(409);

    const bareUrl = (await git.access.clientFor('', '')).client.listRepositories('').then((r) => r.find((x) => x.fullName === 'acme/bare')!.url);
    const res = await api('POST', '/pipelines', owner.idToken, { name: 'spec-kept', gitAccountId, repositoryUrl: await bareUrl, automatedTrigger: false });
    const kept = res.json().pipelineId;
    const spec = (await api('GET', `/pipelines/${kept}/spec`, owner.idToken)).json();
    expect(spec).toMatchObject({ sourceCode: false, branch: 'master', isDefault: true });
    expect(spec.gantryYaml).toContain('git-clone');
    const invalid = await api('PUT', `/pipelines/${kept}/spec`, owner.idToken, { gantryYaml: 'steps:\n  One:\n    type: nope\n' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().message).toBe('Invalid "type" value on the step One');
    const mine = 'steps:\n  Hello:\n    commands:\n      - echo hi\n';
    expect((await api('PUT', `/pipelines/${kept}/spec`, owner.idToken, { gantryYaml: mine })).json()).toEqual({
      sourceCode: false,
      gantryYaml: mine,
      branch: 'master',
      isDefault: false,
    });
    expect((await api('GET', `/pipelines/${kept}/spec`, owner.idToken)).json()).toMatchObject({ gantryYaml: mine, isDefault: false });
    expect((await api('PUT', `/pipelines/${kept}/spec`, reader.idToken, { gantryYaml: mine })).statusCode).toBe(403);
  });
});

describe('builds', () => {
  let pipelineId: string;
  beforeAll(async () => {
    pipelineId = (await t.app.services.pipelines.byName(projectId, 'app-main'))!.id;
  });

  it('runs a real clone and build: SUCCEEDED, ordered steps, masked secret, placeholders, artifacts', async () => {
    const res = await api('POST', `/pipelines/${pipelineId}/builds`, owner.idToken, { ref: 'refs/heads/main' });
    expect(res.statusCode, res.body).toBe(201);
    const build = await waitForBuild(pipelineId, res.json().buildId);
    expect(build.status, build.errorMessage).toBe('SUCCEEDED');
    expect(build.steps.map((s: any) => [s.name, s.stage, s.status])).toEqual([
      ['Clone', 'clone', 'SUCCEEDED'],
      ['Build', 'build', 'SUCCEEDED'],
    ]);
    expect(build.stages).toEqual([{ name: 'clone' }, { name: 'build' }]);
    expect(build.metadata.commit).toMatchObject({ message: 'initial', user: { name: 'Dev' } });
    const log = await logsOf(pipelineId, build.id, 'Build');
    expect(log).toContain('building app-main on main');
    expect(log).toContain('secret is ****');
    expect(log).not.toContain('sup3rs3cret');
    const artifacts = build.steps[1].artifacts;
    expect(artifacts.map((a: any) => [a.kind, a.name, a.files])).toEqual([
      ['files', 'bundle', 1],
      ['json', 'out.json', 1],
    ]);
    const zip = await api('GET', `/pipelines/${pipelineId}/builds/${build.id}/artifacts/${artifacts[0].id}`, reader.idToken);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const json = await api('GET', `/pipelines/${pipelineId}/builds/${build.id}/artifacts/${artifacts[1].id}`, reader.idToken);
    expect(json.json()).toEqual({ version: 'main' });
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/ms-ap/projects/${projectId}/pipelines/${pipelineId}/builds/${build.id}/artifacts/${artifacts[1].id}`,
          headers: bearer(outsider.idToken),
        })
      ).statusCode,
    ).toBe(404);

    const list = (await api('GET', '/pipelines', reader.idToken)).json().pipelines;
    expect(list.find((p: any) => p.id === pipelineId).latestBuild).toMatchObject({ id: build.id, status: 'SUCCEEDED' });
    // the list's latest build and the builds' page carry the steps' artifacts: both Reports cells count them (spec §3)
    const names = (b: any) => b.steps.flatMap((st: any) => st.artifacts.map((a: any) => a.name));
    expect(names(list.find((p: any) => p.id === pipelineId).latestBuild)).toEqual(names(build));
    const listed = (await api('GET', `/pipelines/${pipelineId}/builds?limit=10&offset=0`, reader.idToken)).json().builds;
    expect(names(listed.find((b: any) => b.id === build.id))).toEqual(names(build));
    expect(names(build)).toHaveLength(2);
    const metrics = (await api('GET', `/pipelines/${pipelineId}/metrics`, reader.idToken)).json();
    expect(metrics.successfulExecutions).toBe(1);
    expect(metrics.buildTime).toBeGreaterThan(0);
    expect((await api('GET', '/build-limitations', reader.idToken)).json().buildMinutes).toBe(500);
    const notes = (await t.app.inject({ method: 'GET', url: '/ms-notification/notifications', headers: bearer(reader.idToken) })).json().notifications;
    expect(notes[0]).toMatchObject({
      entityType: 'PIPELINE',
      itemId: pipelineId,
      version: String(build.number),
      message: `Build #${build.number} of app-main on main succeeded`,
    });
  });

  it('fails the build when a command fails', async () => {
    git.commit('acme/app', { 'gantry.yaml': SPEC.replace('echo "secret is $API_KEY"', 'test 1 = 2') }, 'break it');
    const res = await api('POST', `/pipelines/${pipelineId}/builds`, owner.idToken, { ref: 'refs/heads/main' });
    expect(res.statusCode, res.body).toBe(201);
    const build = await waitForBuild(pipelineId, res.json().buildId);
    expect(build.status).toBe('FAILED');
    expect(build.errorMessage).toBe('Step Build failed: Command failed with exit code 1');
    expect(build.steps[1].status).toBe('FAILED');
    expect(await logsOf(pipelineId, build.id, 'Build')).toContain('[gantry] command failed: test 1 = 2');
    git.commit('acme/app', { 'gantry.yaml': SPEC }, 'fix it');
  });

  it('stops a running build: the process tree ends and the build is ABORTED', async () => {
    git.commit('acme/app', { 'gantry.yaml': SPEC.replace('echo "secret is $API_KEY"', 'echo started; sleep 60') }, 'slow');
    const res = await api('POST', `/pipelines/${pipelineId}/builds`, owner.idToken, { ref: 'refs/heads/main' });
    const buildId = res.json().buildId;
    await until(
      () => logsOf(pipelineId, buildId, 'Build'),
      (log) => log.includes('started'),
      'the step to start',
    );
    expect((await api('POST', `/pipelines/${pipelineId}/builds/${buildId}/stop`, reader.idToken)).statusCode).toBe(403);
    expect((await api('POST', `/pipelines/${pipelineId}/builds/${buildId}/stop`, owner.idToken)).statusCode).toBe(200);
    const build = await waitForBuild(pipelineId, buildId);
    expect(build.status).toBe('ABORTED');
    expect(build.steps[1].status).toBe('ABORTED');
    expect((await api('POST', `/pipelines/${pipelineId}/builds/${buildId}/stop`, owner.idToken)).statusCode).toBe(409);
    git.commit('acme/app', { 'gantry.yaml': SPEC }, 'fast again');
  });

  it('lists builds on the project timeline, newest first, for members only', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/ms-elasticsearch/projects/${projectId}/timeline?type=build`, headers: bearer(reader.idToken) });
    expect(res.statusCode).toBe(200);
    const events = res.json().events;
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events[0]).toMatchObject({ type: 'build', pipelineName: 'app-main', pipelineId, projectId });
    expect(Date.parse(events[0].timestamp)).toBeGreaterThanOrEqual(Date.parse(events[1].timestamp));
    expect(
      (await t.app.inject({ method: 'GET', url: `/ms-elasticsearch/projects/${projectId}/timeline?type=deployment`, headers: bearer(reader.idToken) })).json()
        .events,
    ).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `/ms-elasticsearch/projects/${projectId}/timeline`, headers: bearer(outsider.idToken) })).statusCode).toBe(
      404,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: `/ms-elasticsearch/projects/${projectId}/timeline?type=nope`, headers: bearer(reader.idToken) })).statusCode,
    ).toBe(400);
  });

  it('pages builds newest first and finds one by id', async () => {
    const page = (await api('GET', `/pipelines/${pipelineId}/builds?limit=2&offset=0`, reader.idToken)).json().builds;
    expect(page).toHaveLength(2);
    expect(page[0].number).toBeGreaterThan(page[1].number);
    const found = (await api('GET', `/pipelines/${pipelineId}/builds?search=${page[1].id.slice(0, 8)}`, reader.idToken)).json().builds;
    expect(found.map((b: any) => b.id)).toEqual([page[1].id]);
    expect((await api('GET', `/pipelines/${pipelineId}/builds/${page[1].number}`, reader.idToken)).json().id).toBe(page[1].id);
    expect((await api('GET', `/pipelines/${pipelineId}/builds/not-a-build`, reader.idToken)).statusCode).toBe(404);
  });

  it("streams a step's log lines live to a socket of a project member", async () => {
    git.commit('acme/app', { 'gantry.yaml': SPEC.replace('echo "secret is $API_KEY"', 'sleep 1; for i in 1 2 3; do echo live-$i; done') }, 'live');
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await api('POST', `/pipelines/${pipelineId}/builds`, owner.idToken, { ref: 'refs/heads/main' });
    const buildId = res.json().buildId;
    const sock = ioClient(url, { path: REALTIME_PATH, query: { Authorization: reader.idToken }, transports: ['websocket'], reconnection: false });
    const text: string[] = [];
    sock.on('logs', (c: { text: string }) => text.push(c.text));
    expect(await sock.emitWithAck('logs:subscribe', { projectId, pipelineId, buildId, step: 'Build', type: 'pipeline' })).toEqual({ ok: true });
    await waitForBuild(pipelineId, buildId);
    await until(
      async () => text.join('\n'),
      (all) => all.includes('live-3'),
      'the live lines to arrive',
      30_000,
      50,
    );
    expect(text.join('\n')).toMatch(/live-1\nlive-2\nlive-3/);
    sock.close();
    const spy = ioClient(url, { path: REALTIME_PATH, query: { Authorization: outsider.idToken }, transports: ['websocket'], reconnection: false });
    expect(await spy.emitWithAck('logs:subscribe', { projectId, pipelineId, buildId, step: 'Build' })).toEqual({ ok: false, message: 'Project not found' });
    spy.close();
    git.commit('acme/app', { 'gantry.yaml': SPEC }, 'back');
  });

  it('a trigger-pipeline step starts the named pipeline', async () => {
    const target = await createPipeline('downstream', { automatedTrigger: false });
    const up = await createPipeline('upstream', { automatedTrigger: false });
    await t.app.services.pipelines.byName(projectId, 'upstream');
    git.commit('acme/app', { 'gantry.yaml': 'steps:\n  Next:\n    type: trigger-pipeline\n    pipeline: downstream\n' }, 'chain');
    const res = await api('POST', `/pipelines/${up}/builds`, owner.idToken, { ref: 'refs/heads/main' });
    const build = await waitForBuild(up, res.json().buildId);
    expect(build.status, build.errorMessage).toBe('SUCCEEDED');
    const downstream = (await api('GET', `/pipelines/${target}/builds`, owner.idToken)).json().builds;
    expect(downstream[0].trigger).toBe('pipeline');
    git.commit('acme/app', { 'gantry.yaml': SPEC }, 'unchain');
  });

  it('fails a docker-push step without a Dockerfile (or registries) with a clear message', async () => {
    git.commit('acme/app', { 'gantry.yaml': 'steps:\n  Push:\n    type: docker-push\n    image_name: app\n' }, 'push');
    const res = await api('POST', `/pipelines/${pipelineId}/builds`, owner.idToken, { ref: 'refs/heads/main' });
    const build = await waitForBuild(pipelineId, res.json().buildId);
    expect(build.status).toBe('FAILED');
    // no registries module in the app yet: that is said first; with one, the missing Dockerfile is
    expect(build.errorMessage).toMatch(
      /^Step Push failed: (The docker-push step needs the project's Docker registries|The Dockerfile Dockerfile was not found in the repository)/,
    );
    git.commit('acme/app', { 'gantry.yaml': SPEC }, 'no push');
  });

  it('marks a build whose worker died as FAILED with the reason', async () => {
    const res = await api('POST', `/pipelines/${pipelineId}/builds`, owner.idToken, { ref: 'refs/heads/main' });
    const done = await waitForBuild(pipelineId, res.json().buildId);
    // the run leaves this process's pool (never taken as stale while held) a moment after its status is written
    const after = await until(
      async () => {
        await t.app.services.database.executeSql(
          `update builds set status = 'RUNNING', stop_date = null, worker_id = 'dead:1', heartbeat_at = now() - interval '5 minutes' where id = '${done.id}'`,
        );
        await t.app.services.builds.recoverNow();
        return (await api('GET', `/pipelines/${pipelineId}/builds/${done.id}`, owner.idToken)).json();
      },
      (b) => b.status !== 'RUNNING',
      'the build of the dead worker to end',
    );
    expect(after.status).toBe('FAILED');
    expect(after.errorMessage).toMatch(/worker running it stopped/);
  });
});

describe('push webhooks', () => {
  const deliver = (pipelineId: string, secret: string, push: object, signature?: string) => {
    const body = JSON.stringify(push);
    return t.app.inject({
      method: 'POST',
      url: `/ms-ap/webhooks/github/${pipelineId}`,
      headers: { 'content-type': 'application/json', 'x-test-signature': signature ?? git.sign(secret, body) },
      payload: body,
    });
  };

  it('triggers on a matching push and skips branches and files outside the filters', async () => {
    const id = await createPipeline('hooked', { branchFilter: 'main|release/.*', modifiedFiles: 'src/**, docs/*.md' });
    const row = await t.app.services.pipelines.get(projectId, id);
    const secret = t.app.services.pipelines.webhookSecret(row)!;
    const sha = git.commit('acme/app', { 'src/index.js': 'x' }, 'feature');
    const base = { sha, message: 'feature', author: 'Dev' };
    const hit = await deliver(id, secret, { ...base, branch: 'main', changedFiles: ['src/index.js'] });
    expect(hit.statusCode, hit.body).toBe(202);
    expect(hit.json().triggered).toBe(true);
    const build = await waitForBuild(id, hit.json().buildId);
    expect(build.trigger).toBe('webhook');
    expect((await deliver(id, secret, { ...base, branch: 'feature/x', changedFiles: ['src/a.js'] })).json()).toMatchObject({
      triggered: false,
      reason: 'Branch feature/x does not match main|release/.*',
    });
    expect((await deliver(id, secret, { ...base, branch: 'main', changedFiles: ['README.md'] })).json()).toMatchObject({ triggered: false });
    expect((await deliver(id, secret, { ...base, branch: 'release/1.0', changedFiles: ['docs/guide.md'] })).json().triggered).toBe(true);
    expect((await deliver(id, secret, { ...base, branch: 'main', changedFiles: ['src/a.js'] }, 'forged')).statusCode).toBe(401);
  });
});
