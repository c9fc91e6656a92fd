import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, addMember, bearer, until, type TestApp } from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import { createGate } from '../../../test/gate.js';
import { gitAccounts } from '../git-accounts/git-accounts.tables.js';
import type { ComponentsService } from './components.service.js';
import { testTempDir } from '@gantry/test-support/temp-dir';

const SCHEMA = (extra = {}) =>
  JSON.stringify({
    properties: {
      inputs: {
        properties: {
          name: { type: 'string', description: 'Who to greet' },
          tier: { enum: ['dev', 'prod'], default: 'dev' },
          token: { sensitive: true },
          ...extra,
        },
        required: ['name'],
      },
      outputs: { properties: { greeting: { type: 'string', description: 'The greeting' } } },
    },
  });
const SPEC = `steps:
  Clone:
    type: git-clone
  Gate:
    commands:
      - until read -r gate 2>/dev/null < /dev/tcp/127.0.0.1/$GATE_PORT && [ "$gate" = open ]; do sleep 0.05; done
  Module:
    type: terraform-build
    terraform_dir: infra
  Tests:
    commands:
      - echo ok
`;
const MODULE = {
  'gantry.yaml': SPEC,
  'infra/main.tf': 'resource "terraform_data" "hello" {\n  input = "hello ${var.name}"\n}\n',
  'infra/variables.tf': 'variable "name" {}\nvariable "tier" { default = "dev" }\nvariable "token" { sensitive = true }\n',
  'infra/outputs.tf': 'output "greeting" { value = terraform_data.hello.output }\n',
  'infra/schema.json': SCHEMA(),
  'infra/README.md': '# Hello module',
};

let t: TestApp;
let git: ReturnType<typeof createLocalGit>;
let components: ComponentsService;
const used = new Map<string, string[]>();
let gate: Awaited<ReturnType<typeof createGate>>;
let owner: { idToken: string };
let writer: { idToken: string };
let reader: { idToken: string };
let readerB: { idToken: string };
let writerB: { idToken: string };
let outsider: { idToken: string };
let projectA: string;
let projectB: string;
let projectC: string;
let pipelineA: string;
let pipelineB: string;

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', projectId: string, url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-engine/projects/${projectId}/components${url}`, headers: bearer(token), payload });

async function createPipeline(projectId: string, name: string, repositoryUrl: string) {
  const [acc] = await t.app.services.database.db
    .insert(gitAccounts)
    .values({ projectId, type: 'github', accountName: `acme-${name}`, externalId: name, accessTokenSealed: t.app.services.secrets.seal('local-token') })
    .returning();
  const res = await t.app.inject({
    method: 'POST',
    url: `/ms-ap/projects/${projectId}/pipelines`,
    headers: bearer(owner.idToken),
    payload: {
      name,
      gitAccountId: acc!.id,
      repositoryUrl,
      branchFilter: 'main',
      automatedTrigger: false,
      environmentVariables: [{ key: 'GATE_PORT', value: String(gate.port), sensitive: false }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().pipelineId as string;
}

const body = (patch: object = {}) => ({
  name: 'Hello module',
  type: 'Other',
  description: 'Greets',
  cloudProvider: 'aws',
  infrastructureAsCodeTool: 'terraform',
  pipelineId: pipelineA,
  artifactStep: 'Module',
  ...patch,
});

beforeAll(async () => {
  git = createLocalGit();
  gate = await createGate(); // the build waits at it: a sandboxed step sees none of the test's files, but the network
  const repoA = git.createRepo('acme/hello', MODULE).url;
  t = await createTestApp(
    { GANTRY_BOX_LOOPBACK_PORTS: String(gate.port) },
    { overrides: { pipelines: { gitAccess: git.access }, components: { usedByEnvironments: async (id) => used.get(id) ?? [] } } },
  );
  components = t.app.services.components;
  owner = await registerUser(t, 'comp-owner@example.com');
  outsider = await registerUser(t, 'comp-outsider@example.com');
  projectA = await createProject(t, owner.idToken, 'Alpha');
  projectB = await createProject(t, owner.idToken, 'Beta');
  projectC = await createProject(t, outsider.idToken, 'Gamma');
  writer = await addMember(t, owner.idToken, projectA, 'comp-writer@example.com', 'write');
  reader = await addMember(t, owner.idToken, projectA, 'comp-reader@example.com', 'read');
  readerB = await addMember(t, owner.idToken, projectB, 'comp-reader-b@example.com', 'read');
  writerB = await addMember(t, owner.idToken, projectB, 'comp-writer-b@example.com', 'write');
  pipelineA = await createPipeline(projectA, 'hello-pipe', repoA);
  pipelineB = await createPipeline(projectB, 'beta-pipe', repoA);
});
afterAll(async () => {
  await t?.close();
  git?.close();
  await gate?.stop();
});

describe('vendor components', () => {
  it('are seeded once, visible to every project, public and read-only', async () => {
    // a second seeding updates, never duplicates
    expect(await components.seedVendor()).toEqual([
      'AWS VPC',
      'EKS Cluster',
      'Fargate App Runner',
      'Service config',
      'Static site bucket',
      'Strapi Infrastructure',
    ]);
    for (const [p, token] of [
      [projectA, reader.idToken],
      [projectC, outsider.idToken],
    ] as const) {
      const list = (await api('GET', p, '', token)).json().components;
      const vendor = list.filter((c: any) => c.isPublic);
      expect(vendor.map((c: any) => [c.name, c.projectId, c.editable, c.providedBy, c.infrastructureAsCodeTool])).toEqual([
        ['AWS VPC', null, false, null, 'cloudformation'],
        ['EKS Cluster', null, false, null, 'cloudformation'],
        ['Fargate App Runner', null, false, null, 'cloudformation'],
        ['Service config', null, false, null, 'terraform'],
        ['Static site bucket', null, false, null, 'terraform'],
        ['Strapi Infrastructure', null, false, null, 'cloudformation'],
      ]);
    }
  });

  it('have one synthetic version with the shipped schema and README', async () => {
    const site = (await api('GET', projectA, '', reader.idToken)).json().components.find((c: any) => c.name === 'Static site bucket');
    const versions = (await api('GET', projectA, `/${site.id}/versions`, reader.idToken)).json().versions;
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({ isLatestVersion: true, status: 'SUCCEEDED', buildNumber: null });
    expect(versions[0].id).toMatch(/^vendor-[0-9a-f]{16}$/);
    expect(versions[0].version).toBe(versions[0].id.slice('vendor-'.length, 'vendor-'.length + 7));
    const schema = (await api('GET', projectA, `/${site.id}/versions/${versions[0].id}/schema`, reader.idToken)).json();
    expect(schema.inputs.find((i: any) => i.name === 'bucket_name')).toMatchObject({ required: true, type: 'string' });
    expect(schema.outputs.map((o: any) => o.name)).toEqual(['bucket_name', 'website_url', 'bucket_id']);
    expect(schema.readme).toContain('# Static site bucket');
    const details = (await api('GET', projectA, `/${site.id}`, reader.idToken)).json();
    expect(details).toMatchObject({ version: versions[0].version, buildId: versions[0].id, pipelineId: null });
    expect(details.schema.inputs).toHaveLength(5);

    const dest = testTempDir('gantry-vendor-');
    expect(await components.extract(projectA, site.id, 'latest', dest)).toMatchObject({ infrastructureAsCodeTool: 'terraform', versionId: versions[0].id });
    expect(fs.readdirSync(dest).sort()).toEqual(['README.md', 'main.tf', 'outputs.tf', 'schema.json', 'variables.tf']);
    const vpc = (await api('GET', projectA, '', reader.idToken)).json().components.find((c: any) => c.name === 'AWS VPC');
    const vpcDest = testTempDir('gantry-vendor-');
    expect(await components.extract(projectA, vpc.id, 'latest', vpcDest)).toMatchObject({
      infrastructureAsCodeTool: 'cloudformation',
      template: 'template.yaml',
    });
    expect(fs.readFileSync(path.join(vpcDest, 'template.yaml'), 'utf8')).toContain('AWS::EC2::VPC');
  });

  it('cannot be edited, removed or shared', async () => {
    const site = (await api('GET', projectA, '', owner.idToken)).json().components.find((c: any) => c.name === 'Static site bucket');
    expect((await api('PUT', projectA, `/${site.id}`, owner.idToken, body())).statusCode).toBe(403);
    expect((await api('DELETE', projectA, `/${site.id}`, owner.idToken)).statusCode).toBe(403);
    expect((await api('POST', projectA, `/${site.id}/share`, owner.idToken, { projectId: projectB })).statusCode).toBe(403);
  });
});

describe('components API', () => {
  let componentId: string;

  it('creates a component on a pipeline artifact step', async () => {
    const res = await api('POST', projectA, '', writer.idToken, body());
    expect(res.statusCode, res.body).toBe(201);
    componentId = res.json().componentId;
    const details = (await api('GET', projectA, `/${componentId}`, reader.idToken)).json();
    expect(details).toMatchObject({
      name: 'Hello module',
      pipelineId: pipelineA,
      pipelineName: 'hello-pipe',
      branchFilter: 'main',
      artifactStep: 'Module',
      isPublic: false,
      projectId: projectA,
      editable: true,
      accessList: [],
      providedBy: null,
      version: null,
      schema: null,
      readme: null,
    });
    const list = (await api('GET', projectA, '', reader.idToken)).json().components.map((c: any) => c.name);
    expect(list).toEqual(['AWS VPC', 'EKS Cluster', 'Fargate App Runner', 'Hello module', 'Service config', 'Static site bucket', 'Strapi Infrastructure']);
  });

  it('validates the form, the pipeline and the artifact step', async () => {
    const bad = await api('POST', projectA, '', owner.idToken, {
      name: 'ab',
      type: 'Queue',
      description: '',
      cloudProvider: 'google',
      infrastructureAsCodeTool: 'cloudformation',
      pipelineId: 'x',
      artifactStep: '',
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['artifactStep', 'description', 'name', 'pipelineId', 'type']);
    const cfnOffAws = await api(
      'POST',
      projectA,
      '',
      owner.idToken,
      body({ name: 'Cfn google', cloudProvider: 'google', infrastructureAsCodeTool: 'cloudformation' }),
    );
    expect([cfnOffAws.statusCode, cfnOffAws.json().fields]).toEqual([400, { infrastructureAsCodeTool: ['Cloudformation is available for aws only'] }]);
    expect((await api('POST', projectA, '', owner.idToken, body())).statusCode).toBe(409);
    expect((await api('POST', projectA, '', owner.idToken, body({ name: 'hello MODULE' }))).statusCode).toBe(409);
    const foreign = await api('POST', projectA, '', owner.idToken, body({ name: 'Foreign', pipelineId: pipelineB }));
    expect([foreign.statusCode, foreign.json().fields]).toEqual([400, { pipelineId: ['Please select a pipeline of this project'] }]);
    const notArtifact = await api('POST', projectA, '', owner.idToken, body({ name: 'Tests step', artifactStep: 'Tests' }));
    expect([notArtifact.statusCode, notArtifact.json().message]).toEqual([400, 'The step Tests is not an artifact step (terraform-build or cfn-component)']);
    const wrongTool = await api('POST', projectA, '', owner.idToken, body({ name: 'Wrong tool', infrastructureAsCodeTool: 'cloudformation' }));
    expect([wrongTool.statusCode, wrongTool.json().message]).toEqual([
      400,
      'The step Module builds a Terraform component; choose terraform as the infrastructure-as-code tool',
    ]);
  });

  it('refuses a read member (403) and another project (404)', async () => {
    expect((await api('POST', projectA, '', reader.idToken, body({ name: 'By reader' }))).statusCode).toBe(403);
    expect((await api('PUT', projectA, `/${componentId}`, reader.idToken, body())).statusCode).toBe(403);
    expect((await api('DELETE', projectA, `/${componentId}`, reader.idToken)).statusCode).toBe(403);
    expect((await api('GET', projectA, '', outsider.idToken)).statusCode).toBe(404);
    expect((await api('GET', projectA, `/${componentId}`, outsider.idToken)).statusCode).toBe(404);
    // not shared yet: invisible from the owner's other project
    expect((await api('GET', projectB, `/${componentId}`, owner.idToken)).statusCode).toBe(404);
    expect((await api('GET', projectB, `/${componentId}/versions`, owner.idToken)).statusCode).toBe(404);
    expect((await api('PUT', projectB, `/${componentId}`, owner.idToken, body())).statusCode).toBe(404);
  });

  it('updates everything but the name', async () => {
    const res = await api('PUT', projectA, `/${componentId}`, writer.idToken, body({ name: 'Renamed', description: 'Greets nicely', type: 'Storage' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Hello module', description: 'Greets nicely', type: 'Storage' });
    expect((await api('PUT', projectA, `/${componentId}`, writer.idToken, body({ description: '' }))).statusCode).toBe(400);
    expect((await api('PUT', projectA, `/${componentId}`, writer.idToken, body({ artifactStep: 'Gate' }))).statusCode).toBe(400);
  });

  it('shares with another project of the caller: the grantee reads, cannot change', async () => {
    expect((await api('POST', projectA, `/${componentId}/share`, writer.idToken, { projectId: projectB })).statusCode).toBe(403);
    expect((await api('POST', projectA, `/${componentId}/share`, owner.idToken, { projectId: projectC })).statusCode).toBe(404);
    expect((await api('POST', projectA, `/${componentId}/share`, owner.idToken, { projectId: projectA })).statusCode).toBe(400);
    expect((await api('POST', projectA, `/${componentId}/share`, owner.idToken, {})).statusCode).toBe(400);
    const res = await api('POST', projectA, `/${componentId}/share`, owner.idToken, { granteeId: projectB });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().accessList).toEqual([{ assigneeType: 'shared', assigneeId: projectB, assigneeName: 'Beta' }]);
    expect((await api('POST', projectA, `/${componentId}/share`, owner.idToken, { projectId: projectB })).statusCode).toBe(409);

    const seen = (await api('GET', projectB, '', readerB.idToken)).json().components.find((c: any) => c.id === componentId);
    expect(seen).toMatchObject({
      providedBy: 'Provided by project Alpha',
      editable: false,
      accessList: [{ assigneeType: 'parent', assigneeId: projectA, assigneeName: 'Alpha' }],
    });
    expect((await api('GET', projectB, `/${componentId}`, readerB.idToken)).statusCode).toBe(200);
    expect((await api('GET', projectB, `/${componentId}/versions`, readerB.idToken)).statusCode).toBe(200);
    expect((await api('PUT', projectB, `/${componentId}`, writerB.idToken, body())).statusCode).toBe(403);
    expect((await api('DELETE', projectB, `/${componentId}`, writerB.idToken)).statusCode).toBe(403);
    expect((await api('POST', projectB, `/${componentId}/share`, owner.idToken, { projectId: projectA })).statusCode).toBe(403);
    expect((await api('GET', projectC, `/${componentId}`, outsider.idToken)).statusCode).toBe(404);
  });

  it('revokes a share', async () => {
    expect((await api('DELETE', projectA, `/${componentId}/share/${projectB}`, writer.idToken)).statusCode).toBe(403);
    const res = await api('DELETE', projectA, `/${componentId}/share/${projectB}`, owner.idToken);
    expect([res.statusCode, res.json().accessList]).toEqual([200, []]);
    expect((await api('DELETE', projectA, `/${componentId}/share/${projectB}`, owner.idToken)).statusCode).toBe(404);
    expect((await api('GET', projectB, `/${componentId}`, readerB.idToken)).statusCode).toBe(404);
    expect((await api('GET', projectB, '', readerB.idToken)).json().components.some((c: any) => c.id === componentId)).toBe(false);
  });

  it('refuses to delete a component an environment uses, and deletes otherwise', async () => {
    const extra = (await api('POST', projectA, '', owner.idToken, body({ name: 'To delete' }))).json().componentId;
    used.set(extra, ['prod', 'staging']);
    const refused = await api('DELETE', projectA, `/${extra}`, owner.idToken);
    expect([refused.statusCode, refused.json().message]).toEqual([409, 'The component is used by the environments prod, staging; remove its resources first']);
    used.delete(extra);
    expect((await api('DELETE', projectA, `/${extra}`, writer.idToken)).statusCode).toBe(200);
    expect((await api('GET', projectA, `/${extra}`, owner.idToken)).statusCode).toBe(404);
  });
});

describe('component versions from real builds (terraform-build step)', () => {
  let componentId: string;
  const buildsUrl = () => `/ms-ap/projects/${projectA}/pipelines/${pipelineA}/builds`;

  const waitForBuild = (buildId: string) =>
    until(
      async () => (await t.app.inject({ method: 'GET', url: `${buildsUrl()}/${buildId}`, headers: bearer(owner.idToken) })).json(),
      (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
      'the build to finish',
    );
  async function build() {
    const res = await t.app.inject({ method: 'POST', url: buildsUrl(), headers: bearer(owner.idToken), payload: { ref: 'refs/heads/main' } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().buildId as string;
  }

  beforeAll(async () => {
    componentId = (await api('GET', projectA, '', owner.idToken)).json().components.find((c: any) => c.name === 'Hello module').id;
  });

  it('has no versions before a successful build', async () => {
    expect((await api('GET', projectA, `/${componentId}/versions`, reader.idToken)).json().versions).toEqual([]);
    expect((await api('GET', projectA, `/${componentId}/building`, reader.idToken)).json()).toEqual({ build: null });
    expect((await api('GET', projectA, `/${componentId}/versions/latest/schema`, reader.idToken)).statusCode).toBe(404);
  });

  it('shows the running build, then a version with the schema, README and commit', async () => {
    await gate.close();
    const buildId = await build();
    const building = (await api('GET', projectA, `/${componentId}/building`, reader.idToken)).json();
    expect(building.build).toMatchObject({ id: buildId, pipelineId: pipelineA });
    await gate.open();
    const done = await waitForBuild(buildId);
    expect(done.status, done.errorMessage).toBe('SUCCEEDED');
    expect(done.steps.find((s: any) => s.name === 'Module').artifacts.map((a: any) => [a.kind, a.name])).toEqual([
      ['files', 'component'],
      ['json', 'component.json'],
    ]);
    expect((await api('GET', projectA, `/${componentId}/building`, reader.idToken)).json()).toEqual({ build: null });

    const versions = (await api('GET', projectA, `/${componentId}/versions`, reader.idToken)).json().versions;
    const sha = done.metadata.commit.name as string;
    expect(versions).toEqual([
      expect.objectContaining({ id: buildId, version: sha.slice(0, 7), isLatestVersion: true, status: 'SUCCEEDED', buildNumber: done.number }),
    ]);
    expect(versions[0].metadata.commit).toMatchObject({ name: sha, message: 'initial', user: { name: 'Dev' } });

    const schema = (await api('GET', projectA, `/${componentId}/versions/${buildId}/schema`, reader.idToken)).json();
    expect(schema.inputs).toEqual([
      { name: 'name', type: 'string', enum: null, description: 'Who to greet', sensitive: false, required: true },
      { name: 'tier', type: 'string', default: 'dev', enum: ['dev', 'prod'], description: null, sensitive: false, required: false },
      { name: 'token', type: 'string', enum: null, description: null, sensitive: true, required: false },
    ]);
    expect(schema.outputs).toEqual([{ name: 'greeting', type: 'string', description: 'The greeting', sensitive: false }]);
    expect(schema.readme).toBe('# Hello module');
    expect((await api('GET', projectA, `/${componentId}`, reader.idToken)).json()).toMatchObject({
      buildId,
      version: sha.slice(0, 7),
      readme: '# Hello module',
    });

    const dest = testTempDir('gantry-extract-');
    await components.extract(projectA, componentId, buildId, dest);
    expect(fs.readdirSync(dest).sort()).toEqual(['README.md', 'main.tf', 'outputs.tf', 'schema.json', 'variables.tf']);
    const vpc = (await api('GET', projectA, '', reader.idToken)).json().components.find((c: any) => c.name === 'AWS VPC');
    const vpcDest = testTempDir('gantry-vendor-');
    expect(await components.extract(projectA, vpc.id, 'latest', vpcDest)).toMatchObject({
      infrastructureAsCodeTool: 'cloudformation',
      template: 'template.yaml',
    });
    expect(fs.readFileSync(path.join(vpcDest, 'template.yaml'), 'utf8')).toContain('AWS::EC2::VPC');
  });

  it('lists a newer build first as the latest version; an unknown version is 404', async () => {
    const sha = git.commit('acme/hello', { 'infra/schema.json': SCHEMA({ extra: { type: 'number', default: 2 } }) }, 'add extra');
    const done = await waitForBuild(await build());
    expect(done.status, done.errorMessage).toBe('SUCCEEDED');
    const versions = (await api('GET', projectA, `/${componentId}/versions`, reader.idToken)).json().versions;
    expect(versions.map((v: any) => [v.version, v.isLatestVersion])).toEqual([
      [sha.slice(0, 7), true],
      [expect.any(String), false],
    ]);
    const latest = (await api('GET', projectA, `/${componentId}/versions/latest/schema`, reader.idToken)).json();
    expect(latest.inputs.map((i: any) => i.name)).toEqual(['name', 'tier', 'token', 'extra']);
    expect((await api('GET', projectA, `/${componentId}/versions/${projectA}/schema`, reader.idToken)).statusCode).toBe(404);
  });
});
