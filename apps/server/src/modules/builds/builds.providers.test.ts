import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startGitStandin, type GitStandin } from '@gantry/test-support/git-standin/index';
import { createTestApp, registerUser, createProject, bearer, until, type TestApp } from '../../../test/helpers.js';

/**
 * Pipelines over real provider wire formats: an account connected by OAuth against the stand-in, a
 * repository cloned over HTTP (git http-backend) with the account's token, and push webhooks
 * signed by the provider and delivered to Gantry's webhook route.
 */
const SPEC = `stages:
  - clone
  - test
steps:
  Clone:
    stage: clone
    type: git-clone
  Test:
    stage: test
    commands:
      - cat VERSION
      - git log -1 --format=%s
    artifacts:
      files:
        source:
          - VERSION
`;

let standin: GitStandin;
let t: TestApp;
let owner: { idToken: string };
let projectId: string;

beforeAll(async () => {
  let app: TestApp | undefined;
  standin = await startGitStandin({
    // deliveries go straight into the app, as the provider's POST would
    deliver: async (d) => {
      const res = await app!.app.inject({ method: 'POST', url: new URL(d.url).pathname, headers: d.headers, payload: d.body });
      return { status: res.statusCode };
    },
  });
  await standin.createRepo('acme/shop', { 'gantry.yaml': SPEC, VERSION: '1.0.0\n' });
  t = app = await createTestApp({ ...standin.env });
  owner = await registerUser(t, 'prov-owner@example.com');
  projectId = await createProject(t, owner.idToken, 'Shop');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await standin?.close();
});

const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-ap/projects/${projectId}${url}`, headers: bearer(owner.idToken), payload });

const finished = (pipelineId: string, buildId: string) =>
  until(
    async () => (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`)).json(),
    (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
    'the build to finish',
  );

describe.each(['github', 'gitlab', 'bitbucket'] as const)('a %s pipeline', (type) => {
  let pipelineId: string;

  it('connects the account, creates the pipeline on a repository and registers its webhook', async () => {
    const connect = await api('POST', '/git-accounts', { code: standin.issueCode(type), type });
    expect(connect.statusCode, connect.body).toBe(201);
    const gitAccountId = connect.json().gitAccountId;
    const repos = (await api('GET', `/git-accounts/${gitAccountId}/repositories`)).json().repositories;
    const repo = repos.find((r: { fullName: string }) => r.fullName === 'acme/shop');
    const created = await api('POST', '/pipelines', {
      name: `shop-${type}`,
      gitAccountId,
      repositoryUrl: repo.url,
      branchFilter: 'main',
      modifiedFiles: 'VERSION',
    });
    expect(created.statusCode, created.body).toBe(201);
    pipelineId = created.json().pipelineId;
    expect(standin.hooks.some((h) => h.provider === type && h.url.endsWith(`/ms-ap/webhooks/${type}/${pipelineId}`))).toBe(true);
  });

  it('builds on a push: clones over HTTP with the token, runs the commands, hides the token', async () => {
    const before = (await api('GET', `/pipelines/${pipelineId}/builds`)).json().builds.length;
    await standin.commit('acme/shop', { VERSION: `2.0.0-${type}\n` }, `release ${type}`);
    const builds = (await api('GET', `/pipelines/${pipelineId}/builds`)).json().builds;
    expect(builds.length).toBe(before + 1);
    const build = await finished(pipelineId, builds[0].id);
    expect(build.status, build.errorMessage).toBe('SUCCEEDED');
    expect(build.trigger).toBe('webhook');
    expect(build.metadata.commit.message).toBe(`release ${type}`);
    const log = (await api('GET', `/pipelines/${pipelineId}/builds/${build.id}/steps/Test/logs`))
      .json()
      .chunks.map((c: { text: string }) => c.text)
      .join('\n');
    expect(log).toContain(`2.0.0-${type}`);
    const cloneLog = (await api('GET', `/pipelines/${pipelineId}/builds/${build.id}/steps/Clone/logs`))
      .json()
      .chunks.map((c: { text: string }) => c.text)
      .join('\n');
    for (const token of standin.issuedTokens.filter((x) => x.provider === type)) expect(cloneLog).not.toContain(token.token);
    expect(build.steps[1].artifacts[0]).toMatchObject({ kind: 'files', name: 'source', files: 1 });
  });

  it('skips a push whose changed files miss the filter, and triggers by hand on a chosen branch', async () => {
    const before = (await api('GET', `/pipelines/${pipelineId}/builds`)).json().builds.length;
    await standin.commit('acme/shop', { 'docs/notes.md': 'x' }, 'docs only');
    expect((await api('GET', `/pipelines/${pipelineId}/builds`)).json().builds.length).toBe(before);
    const res = await api('POST', `/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' });
    expect(res.statusCode, res.body).toBe(201);
    expect((await finished(pipelineId, res.json().buildId)).status).toBe('SUCCEEDED');
  });
});
