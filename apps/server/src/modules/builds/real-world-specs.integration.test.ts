import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startRegistry, type LocalRegistry } from '@gantry/test-support';
import {
  createTestApp,
  registerUser,
  createProject,
  grantPlan,
  connectAwsAccount,
  acceptingCloudVerifier,
  bearer,
  until,
  type TestApp,
  insertGitAccount,
} from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import type { RegistriesPort, RegistryPushTarget } from '../registries/registries.port.js';

/**
 * Specs written for the original product, kept where its repositories keep them
 * (`.microtica/microtica.yaml`), run unchanged through the real app: a `type: build` step with
 * `cache`, a `title` and a `docker` block pushing to a real registry with MIC_ placeholders, a
 * Kubernetes deploy skipped on a branch its `branch_filter` does not match, and a partial
 * environment deploy (a resource created at the build's version, then an existing one moved to a
 * newer version) on the real terraform CLI.
 */
const APP_SPEC = `steps:
  Clone:
    title: Clone the repository
    type: git-clone
  BuildApp:
    title: Build and push the image
    type: build
    image: public.ecr.aws/docker/library/node:20
    cache: true
    commands:
      - 'if test -f node_modules/.marker; then echo "CACHE-HIT from $(cat node_modules/.marker)"; else echo CACHE-MISS; fi'
      - mkdir -p node_modules && echo "{{MIC_PIPELINE_EXECUTION_ID}}" > node_modules/.marker
      - echo "pipeline={{MIC_PIPELINE_NAME}} greeting={{GREETING}} env=$MIC_PIPELINE_EXECUTION_ID"
    artifacts:
      files:
        marker: node_modules/.marker
    docker:
      image_name: "{{ IMAGE_NAME }}"
      tag: "mic-{{ MIC_PIPELINE_EXECUTION_ID }}"
      dockerfile: ./Dockerfile
  Deploy:
    title: Deploy on Kubernetes
    type: deploy
    target: kubernetes
    cluster: "{{CLUSTER_ID}}"
    service: web
    namespace: microtica
    tag: "mic-{{ MIC_PIPELINE_EXECUTION_ID }}"
    branch_filter: release
`;

const COMPONENT_SPEC = `steps:
  Clone:
    type: git-clone
  Module:
    title: Package the module
    type: terraform-build
    terraform_dir: infra
  DeployEnv:
    title: Deploy the environment
    type: deploy
    target: environment
    env_id: "{{ENV_ID}}"
    partial:
      create_missing_resources: true
      resource_version_overrides:
        "{{RESOURCE_NAME}}": "{{MIC_PIPELINE_EXECUTION_ID}}"
`;
const MAIN_TF = `resource "terraform_data" "item" {
  input = var.name
  provisioner "local-exec" {
    command = "echo item-deployed-\${var.name}"
  }
}
`;
const VARIABLES_TF = `variable "name" {
  type    = string
  default = "unnamed"
}
`;
const OUTPUTS_TF = `output "greeting" { value = "hello \${var.name}" }\n`;
const SCHEMA = JSON.stringify({
  properties: { inputs: { properties: { name: { type: 'string', default: 'unnamed' } } }, outputs: { properties: { greeting: { type: 'string' } } } },
});

let t: TestApp;
let git: ReturnType<typeof createLocalGit>;
let registry: LocalRegistry;
let dataDir: string;
let owner: { idToken: string };
let projectId: string;
let gitAccountId: string;

const fakeRegistries: RegistriesPort = {
  pushTarget: async (_project, registryName) =>
    ({
      registryName: registryName || 'local',
      provider: 'DockerRegistryV2',
      host: registry.host,
      repositoryPrefix: 'acme',
      username: registry.username,
      password: registry.password,
      tls: false,
    }) satisfies RegistryPushTarget,
  registryScan: async () => null,
};
const serviceDeploys: unknown[] = [];

const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-ap/projects/${projectId}${url}`, headers: bearer(owner.idToken), payload });
const engine = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-engine/projects/${projectId}${url}`, headers: bearer(owner.idToken), payload });
const logsOf = async (pipelineId: string, buildId: string, step: string) =>
  ((await api('GET', `/pipelines/${pipelineId}/builds/${buildId}/steps/${step}/logs`)).json().chunks as { text: string }[]).map((c) => c.text).join('\n');

async function pipelineWith(name: string, files: Record<string, string>, variables: Record<string, string>) {
  const repo = git.createRepo(`acme/${name}`, files);
  const res = await api('POST', '/pipelines', {
    name,
    gitAccountId,
    repositoryUrl: repo.url,
    branchFilter: 'main',
    automatedTrigger: false,
    environmentVariables: Object.entries(variables).map(([key, value]) => ({ key, value, sensitive: false })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().pipelineId as string;
}
async function build(pipelineId: string) {
  const res = await api('POST', `/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' });
  expect(res.statusCode, res.body).toBe(201);
  return until(
    async () => (await api('GET', `/pipelines/${pipelineId}/builds/${res.json().buildId}`)).json(),
    (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
    'the build',
    180_000,
  );
}
const stepOf = (b: { steps: { name: string }[] }, name: string) => b.steps.find((s) => s.name === name) as Record<string, any>;

beforeAll(async () => {
  registry = await startRegistry({ auth: 'htpasswd' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-real-specs-'));
  git = createLocalGit();
  t = await createTestApp(
    { GANTRY_DATA_DIR: dataDir },
    {
      overrides: {
        pipelines: {
          gitAccess: git.access,
          registries: fakeRegistries,
          services: { deployVersion: async (req) => (serviceDeploys.push(req), { done: true, historyId: 'h-1' }) },
        },
        cloudAccounts: { verifier: acceptingCloudVerifier },
        deployments: { credentialsFor: async () => ({ AWS_ACCESS_KEY_ID: 'AKIAREALWORLD', AWS_SECRET_ACCESS_KEY: 'secret' }) },
      },
    },
  );
  owner = await registerUser(t, 'real-specs@example.com');
  projectId = await createProject(t, owner.idToken, 'Brought');
  await grantPlan(t, owner.idToken, projectId);
  await connectAwsAccount(t, owner.idToken, projectId, '123456789012');
  const row = await insertGitAccount(t, projectId);
  gitAccountId = row!.id;
}, 120_000);
afterAll(async () => {
  await t?.close();
  git?.close();
  await registry?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a spec brought from the original product', () => {
  it('builds with its commands, keeps and restores the cache, pushes its docker block, and skips a deploy its branch filter does not match', async () => {
    const pipelineId = await pipelineWith(
      'brought-app',
      { '.microtica/microtica.yaml': APP_SPEC, Dockerfile: 'FROM scratch\nCOPY app.txt /app.txt\n', 'app.txt': 'hello' },
      { GREETING: 'hi', IMAGE_NAME: 'brought', CLUSTER_ID: 'prod-cluster' },
    );
    const spec = (await api('GET', `/pipelines/${pipelineId}/spec`)).json();
    expect(spec).toMatchObject({ sourceCode: true, specFile: '.microtica/microtica.yaml', gantryYaml: APP_SPEC });

    const first = await build(pipelineId);
    const firstLog = await logsOf(pipelineId, first.id, 'BuildApp');
    expect(first.status, `${first.errorMessage}\n${firstLog}`).toBe('SUCCEEDED');
    expect(first.steps.map((s: { name: string; title: string }) => [s.name, s.title])).toEqual([
      ['Clone', 'Clone the repository'],
      ['BuildApp', 'Build and push the image'],
      ['Deploy', 'Deploy on Kubernetes'],
    ]);
    expect(firstLog).toContain('CACHE-MISS');
    expect(firstLog).toContain(`pipeline=brought-app greeting=hi env=${first.id}`);
    expect(firstLog).toContain('[gantry] cache saved: node_modules');

    // the docker block: built and pushed as a docker-push step, its tag from the MIC_ placeholder
    const tag = `mic-${first.id}`;
    const reference = `${registry.host}/acme/brought:${tag}`;
    expect(stepOf(first, 'BuildApp').reports.image).toMatchObject({ reference, repository: 'acme/brought', tag });
    const seen = JSON.parse(
      execFileSync('skopeo', ['inspect', '--tls-verify=false', '--creds', `${registry.username}:${registry.password}`, `docker://${reference}`], {
        encoding: 'utf8',
      }),
    );
    expect(seen.Digest).toBe(stepOf(first, 'BuildApp').reports.image.digest);
    expect(stepOf(first, 'BuildApp').artifacts.map((a: { name: string }) => a.name)).toEqual(['marker']);

    // main does not match the deploy's branch filter: skipped, said so, nothing deployed
    const deploy = stepOf(first, 'Deploy');
    expect(deploy.status).toBe('SUCCEEDED');
    expect(deploy.reports).toEqual({ skipped: "the branch main does not match the step's branch filter release" });
    expect(await logsOf(pipelineId, first.id, 'Deploy')).toContain('[gantry] skipped:');
    expect(serviceDeploys).toEqual([]);

    // the second build finds what the first kept
    const second = await build(pipelineId);
    const secondLog = await logsOf(pipelineId, second.id, 'BuildApp');
    expect(second.status, `${second.errorMessage}\n${secondLog}`).toBe('SUCCEEDED');
    expect(secondLog).toContain('[gantry] cache restored: node_modules');
    expect(secondLog).toContain(`CACHE-HIT from ${first.id}`);
  }, 300_000);

  it('deploys its environment partially: creates the missing resource at the build’s version, then moves it to the next build’s', async () => {
    const pipelineId = await pipelineWith(
      'brought-infra',
      {
        '.microtica/microtica.yaml': COMPONENT_SPEC,
        'infra/main.tf': MAIN_TF,
        'infra/variables.tf': VARIABLES_TF,
        'infra/outputs.tf': OUTPUTS_TF,
        'infra/schema.json': SCHEMA,
      },
      { ENV_ID: 'brought', RESOURCE_NAME: 'item' },
    );
    const comp = await engine('POST', '/components', {
      name: 'Item',
      type: 'Other',
      description: 'An item',
      cloudProvider: 'aws',
      infrastructureAsCodeTool: 'terraform',
      pipelineId,
      artifactStep: 'Module',
    });
    expect(comp.statusCode, comp.body).toBe(201);
    const created = await engine('POST', '/stages', {
      name: 'brought',
      description: 'Brought spec',
      cloudProvider: 'aws',
      infrastructureAsCodeTool: 'terraform',
      awsAccountId: '123456789012',
      awsRegion: 'eu-west-1',
    });
    expect(created.statusCode, created.body).toBe(201);
    const stageId = created.json().stageId as string;
    const resources = async () =>
      (await engine('GET', `/stages/${stageId}/resources`))
        .json()
        .resources.map((r: { name: string; componentVersion: string; isDeployed: boolean }) => [r.name, r.componentVersion, r.isDeployed]);
    expect(await resources()).toEqual([]);

    const first = await build(pipelineId);
    const firstLog = await logsOf(pipelineId, first.id, 'DeployEnv');
    expect(first.status, `${first.errorMessage}\n${firstLog}`).toBe('SUCCEEDED');
    expect(firstLog).toContain(`[gantry] item created at version ${first.id}`);
    expect(firstLog).toContain('item-deployed-unnamed'); // the deployment's own log, in the step's panel
    expect(stepOf(first, 'DeployEnv').reports.environmentDeploy).toMatchObject({ environment: 'brought', status: 'CREATE_COMPLETE', succeeded: true });
    expect(await resources()).toEqual([['item', first.id, true]]);

    const second = await build(pipelineId);
    const secondLog = await logsOf(pipelineId, second.id, 'DeployEnv');
    expect(second.status, `${second.errorMessage}\n${secondLog}`).toBe('SUCCEEDED');
    expect(secondLog).toContain(`[gantry] item set to version ${second.id}`);
    expect(stepOf(second, 'DeployEnv').reports.environmentDeploy).toMatchObject({ status: 'UPDATE_COMPLETE', succeeded: true });
    expect(await resources()).toEqual([['item', second.id, true]]);
    const deployments = (await engine('GET', `/stages/${stageId}/deployments`)).json().deployments as {
      resources: { name: string; componentVersion: string }[];
    }[];
    expect(deployments[0]!.resources).toEqual([expect.objectContaining({ name: 'item', componentVersion: second.id })]);
  }, 300_000);
});
