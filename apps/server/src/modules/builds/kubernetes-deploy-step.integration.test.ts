import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startKubeStandin, type KubeStandin } from '@gantry/test-support';
import { createTestApp, registerUser, createProject, grantPlan, bearer, until, type TestApp, insertGitAccount } from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';

/**
 * A brought spec's `deploy` step with `target: kubernetes`, through the real services module onto the
 * Kubernetes stand-in: on a branch its `branch_filter` matches it deploys the tag (MIC_ placeholder), the
 * service's history naming the build (the skip on another branch: real-world-specs.integration.test.ts).
 */
const SPEC = `steps:
  Deploy:
    title: Deploy on Kubernetes
    type: deploy
    target: kubernetes
    cluster: "{{CLUSTER_ID}}"
    service: web
    namespace: team-a
    tag: "v-{{MIC_PIPELINE_EXECUTION_ID}}"
    branch_filter: main
`;

let t: TestApp;
let k: KubeStandin;
let git: ReturnType<typeof createLocalGit>;
let owner: { idToken: string };
let projectId: string;

const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers: bearer(owner.idToken), payload });
const image = () => k.get('deployments', 'team-a', 'web')?.spec.template.spec.containers[0].image as string | undefined;

beforeAll(async () => {
  k = await startKubeStandin({ nodes: 1, namespaces: ['team-a'] });
  git = createLocalGit();
  t = await createTestApp({ OUTBOUND_NETWORK: 'any' }, { overrides: { pipelines: { gitAccess: git.access } } });
  owner = await registerUser(t, 'kube-deploy@example.com');
  projectId = await createProject(t, owner.idToken, 'Kube');
  await grantPlan(t, owner.idToken, projectId);
  const cluster = await call('POST', `/ms-kube/projects/${projectId}/kubernetes`, {
    name: 'prod',
    endpoint: k.url,
    apiToken: k.adminToken,
    caCertificate: k.caPem,
    type: 'personal',
  });
  expect(cluster.statusCode, cluster.body).toBe(201);
  const service = await call('POST', `/ms-kube/projects/${projectId}/microservices`, {
    name: 'web',
    description: 'The web service',
    registry: null,
    imageRepository: 'nginx',
  });
  expect(service.statusCode, service.body).toBe(201);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await k?.close();
  git?.close();
});

describe('deploy step, target kubernetes', () => {
  it('deploys the tag on a matching branch through the services module', async () => {
    const acc = await insertGitAccount(t, projectId);
    const repo = git.createRepo('acme/web', { '.microtica/microtica.yaml': SPEC });
    const created = await call('POST', `/ms-ap/projects/${projectId}/pipelines`, {
      name: 'web-deploy',
      gitAccountId: acc!.id,
      repositoryUrl: repo.url,
      branchFilter: '.*',
      automatedTrigger: false,
      environmentVariables: [{ key: 'CLUSTER_ID', value: 'prod', sensitive: false }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const builds = `/ms-ap/projects/${projectId}/pipelines/${created.json().pipelineId}/builds`;
    const build = async (ref: string) => {
      const started = await call('POST', builds, { ref });
      expect(started.statusCode, started.body).toBe(201);
      return until(
        async () => (await call('GET', `${builds}/${started.json().buildId}`)).json(),
        (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
        'the build',
      );
    };
    const logs = async (buildId: string) =>
      ((await call('GET', `${builds}/${buildId}/steps/Deploy/logs`)).json().chunks as { text: string }[]).map((c) => c.text).join('\n');

    const done = await build('refs/heads/main');
    expect(done.status, `${done.errorMessage}\n${await logs(done.id)}`).toBe('SUCCEEDED');
    expect(image()).toBe(`nginx:v-${done.id}`);
    expect(done.steps[0].reports.serviceDeploy).toMatchObject({ service: 'web', namespace: 'team-a', tag: `v-${done.id}` });
    expect(await logs(done.id)).toContain('Applied Deployment web');
    const history = await call('GET', `/ms-kube/projects/${projectId}/microservices/web/history`);
    expect(history.body).toContain(done.id);
  }, 180_000);
});
