import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  createTestApp,
  awsProject,
  awsStage,
  TEST_AWS_ACCOUNT,
  componentId,
  registerUser,
  createProject,
  addMember,
  bearer,
  type TestApp,
  acceptingCloudVerifier,
  grantPlan,
} from '../../../test/helpers.js';

const verifier = acceptingCloudVerifier;

let t: TestApp;
let owner: { idToken: string };
let writer: { idToken: string };
let reader: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let otherProjectId: string;

const api = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object, pid = projectId) =>
  t.app.inject({ method, url: `/ms-engine/projects/${pid}${url}`, headers: bearer(token), payload });

beforeAll(async () => {
  t = await createTestApp({}, { overrides: { cloudAccounts: { verifier } } });
  owner = await registerUser(t, 'stage-owner@example.com');
  outsider = await registerUser(t, 'stage-outsider@example.com');
  projectId = await awsProject(t, owner.idToken, 'Stages');
  otherProjectId = await createProject(t, outsider.idToken, 'Other');
  writer = await addMember(t, owner.idToken, projectId, 'stage-writer@example.com', 'write');
  reader = await addMember(t, owner.idToken, projectId, 'stage-reader@example.com', 'read');
});
afterAll(async () => {
  await t?.close();
});

describe('environments (stages)', () => {
  let stageId: string;

  it("creates an environment on one of the project's AWS accounts", async () => {
    const res = await api('POST', '/stages', writer.idToken, awsStage());
    expect(res.statusCode, res.body).toBe(201);
    stageId = res.json().stageId;
    const got = (await api('GET', `/stages/${stageId}`, reader.idToken)).json();
    expect(got).toMatchObject({
      name: 'staging',
      status: 'NOT_DEPLOYED',
      cloudProvider: 'aws',
      infrastructureAsCodeTool: 'terraform',
      awsAccountId: TEST_AWS_ACCOUNT,
      awsRegion: 'eu-central-1',
      tenantId: null,
      lastDeployed: null,
    });
    expect((await api('GET', '/stages', reader.idToken)).json().stages.map((s: any) => s.name)).toEqual(['staging']);
    const projects = (await t.app.inject({ method: 'GET', url: '/ms-project/projects', headers: bearer(owner.idToken) })).json().projects;
    expect(projects.find((p: any) => p.id === projectId).stagesCount).toBe(1);
  });

  it('validates per provider and refuses accounts of other projects', async () => {
    const bad = await api('POST', '/stages', writer.idToken, {
      name: 'x',
      description: '',
      cloudProvider: 'azurerm',
      infrastructureAsCodeTool: 'cloudformation',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      name: ['Environment name must be 3 to 20 characters'],
      description: ['Description must be 1 to 255 characters'],
      infrastructureAsCodeTool: ['CloudFormation environments need the aws provider'],
      tenantId: ['Please enter the tenant id'],
      subscriptionId: ['Please enter the subscription id'],
    });
    const dashed = await api('POST', '/stages', writer.idToken, awsStage({ name: 'my-env' }));
    expect(dashed.json().fields).toEqual({ name: ['Environment name may contain only letters and digits'] });
    const zone = await api('POST', '/stages', writer.idToken, {
      name: 'gcpEnv',
      description: 'GCP',
      cloudProvider: 'google',
      gcpProjectId: 'p',
      gcpRegion: 'europe-west1',
      gcpZone: 'us-east1-b',
    });
    expect(zone.json().fields.gcpZone).toEqual(['Please select a zone of the region']);
    const foreign = await api('POST', '/stages', writer.idToken, awsStage({ name: 'foreign', awsAccountId: '999999999999' }));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe('Please select an AWS account of this project');
    expect((await api('POST', '/stages', writer.idToken, awsStage())).statusCode).toBe(409);
  });

  it('enforces roles and project boundaries', async () => {
    expect((await api('POST', '/stages', reader.idToken, awsStage({ name: 'byReader' }))).statusCode).toBe(403);
    expect((await api('PUT', `/stages/${stageId}`, reader.idToken, awsStage())).statusCode).toBe(403);
    expect((await api('DELETE', `/stages/${stageId}`, reader.idToken)).statusCode).toBe(403);
    expect((await api('GET', `/stages/${stageId}`, outsider.idToken)).statusCode).toBe(404);
    expect((await api('GET', `/stages/${stageId}`, outsider.idToken, undefined, otherProjectId)).statusCode).toBe(404);
  });

  it('locks provider, tool and account once deployed, and keeps a deployed environment from deletion', async () => {
    expect((await api('PUT', `/stages/${stageId}`, writer.idToken, awsStage({ description: 'Renamed', awsRegion: 'eu-west-1' }))).json()).toMatchObject({
      description: 'Renamed',
      awsRegion: 'eu-west-1',
    });
    await t.app.services.database.executeSql(`update stages set status = 'UPDATE_COMPLETE' where id = '${stageId}'`);
    const locked = await api('PUT', `/stages/${stageId}`, writer.idToken, awsStage({ awsRegion: 'us-east-1' }));
    expect(locked.statusCode).toBe(400);
    expect(locked.json().fields).toEqual({ awsRegion: ['Locked while the environment is deployed'] });
    expect((await api('PUT', `/stages/${stageId}`, writer.idToken, awsStage({ awsRegion: 'eu-west-1', description: 'Still editable' }))).statusCode).toBe(200);
    expect((await api('DELETE', `/stages/${stageId}`, writer.idToken)).statusCode).toBe(409);
    const del = await t.app.inject({ method: 'DELETE', url: `/ms-project/projects/${projectId}`, headers: bearer(owner.idToken) });
    expect(del.statusCode).toBe(409);
    expect(del.json().deployedStages).toEqual(['staging']);
    await t.app.services.database.executeSql(`update stages set status = 'NOT_DEPLOYED' where id = '${stageId}'`);
  });

  it('counts against the plan: STARTER allows 2 environments, replication needs a higher plan', async () => {
    expect((await api('POST', '/stages', writer.idToken, awsStage({ name: 'second' }))).statusCode).toBe(201);
    const third = await api('POST', '/stages', writer.idToken, awsStage({ name: 'third' }));
    expect(third.statusCode).toBe(402);
    expect((await api('DELETE', `/stages/${stageId}`, writer.idToken)).statusCode).toBe(200);
    const replica = await api(
      'POST',
      '/stages',
      writer.idToken,
      awsStage({ name: 'secondReplica', copyFrom: (await api('GET', '/stages', reader.idToken)).json().stages[0].id }),
    );
    expect(replica.statusCode).toBe(402);
    expect(replica.json().message).toBe('Your plan does not include Environment replication. Upgrade your plan to use it.');
  });

  describe('resources', () => {
    let envId: string;
    let site: string;
    let config: string;
    beforeAll(async () => {
      const list = (await api('GET', '/stages', reader.idToken)).json().stages;
      envId = list[0].id;
      site = await componentId(t, reader.idToken, projectId, 'Static site bucket');
      config = await componentId(t, reader.idToken, projectId, 'Service config');
    });

    it('adds a component at LATEST with values checked against its schema', async () => {
      const bad = await api('POST', `/stages/${envId}/resources`, writer.idToken, {
        name: 'site',
        componentId: site,
        configurations: [{ key: 'region', value: 'mars-1' }],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields).toEqual({
        'configurations.region': ['region must be one of us-east-1, us-east-2, us-west-2, eu-west-1, eu-central-1, ap-southeast-1'],
        'configurations.bucket_name': ['bucket_name is required'],
      });
      const res = await api('POST', `/stages/${envId}/resources`, writer.idToken, {
        name: 'site',
        componentId: site,
        configurations: [{ key: 'bucket_name', value: 'my-site' }],
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        name: 'site',
        componentVersion: 'LATEST',
        status: 'NOT_DEPLOYED',
        isDeployed: false,
        component: { name: 'Static site bucket' },
      });
      expect(
        (
          await api('POST', `/stages/${envId}/resources`, writer.idToken, {
            name: 'site',
            componentId: site,
            configurations: [{ key: 'bucket_name', value: 'x' }],
          })
        ).statusCode,
      ).toBe(409);
      expect(
        (
          await api('POST', `/stages/${envId}/resources`, reader.idToken, {
            name: 'other',
            componentId: site,
            configurations: [{ key: 'bucket_name', value: 'x' }],
          })
        ).statusCode,
      ).toBe(403);
    });

    it("takes references to other resources' outputs and seals sensitive values", async () => {
      const wrongOutput = await api('POST', `/stages/${envId}/resources`, writer.idToken, {
        name: 'app',
        componentId: config,
        configurations: [
          { key: 'service_name', value: 'web' },
          { key: 'backend_url', value: 'site.nope', reference: true },
        ],
      });
      expect(wrongOutput.json().fields).toEqual({ 'configurations.backend_url': ['site has no output nope'] });
      const missing = await api('POST', `/stages/${envId}/resources`, writer.idToken, {
        name: 'app',
        componentId: config,
        configurations: [
          { key: 'service_name', value: 'web' },
          { key: 'backend_url', value: 'ghost.website_url', reference: true },
        ],
      });
      expect(missing.json().message).toBe('There is no resource ghost in this environment');
      const ok = await api('POST', `/stages/${envId}/resources`, writer.idToken, {
        name: 'app',
        componentId: config,
        configurations: [
          { key: 'service_name', value: 'web' },
          { key: 'backend_url', value: 'site.website_url', reference: true },
          { key: 'api_key', value: 'k3y-s3cret' },
        ],
      });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json().configurations).toEqual([
        { key: 'service_name', value: 'web', sensitive: false, reference: false },
        { key: 'backend_url', value: 'site.website_url', sensitive: false, reference: true },
        { key: 'api_key', value: '(sensitive)', sensitive: true, reference: false },
      ]);
      const raw = await t.app.services.database.executeSql(`select configurations::text as c from stage_resources where name = 'app'`);
      expect(raw.rows[0].c).not.toContain('k3y-s3cret');
      const updated = await api('PUT', `/stages/${envId}/resources/app`, writer.idToken, {
        name: 'app',
        componentId: config,
        configurations: [
          { key: 'service_name', value: 'web2' },
          { key: 'api_key', value: '(sensitive)', sensitive: true },
        ],
      });
      expect(updated.statusCode, updated.body).toBe(200);
      const again = await t.app.services.database.executeSql(`select configurations::text as c from stage_resources where name = 'app'`);
      expect(again.rows[0].c).toBe(raw.rows[0].c.replace('"web"', '"web2"').replace(/,\s*\{"key": "backend_url"[^}]*\}/, ''));
    });

    it('a replica starts with the resources of its environment, not deployed (it started empty)', async () => {
      await grantPlan(t, owner.idToken, projectId);
      const source = (await api('GET', `/stages/${envId}`, reader.idToken)).json();
      const res = await api('POST', '/stages', writer.idToken, awsStage({ name: `${source.name}Replica`, copyFrom: envId }));
      expect(res.statusCode, res.body).toBe(201);
      const replicaId = res.json().stageId;
      const shape = (r: any) => ({ name: r.name, componentId: r.component.id, componentVersion: r.componentVersion, configurations: r.configurations });
      const own = (await api('GET', `/stages/${envId}/resources`, reader.idToken)).json().resources;
      const copied = (await api('GET', `/stages/${replicaId}/resources`, reader.idToken)).json().resources;
      expect(own.map((r: any) => r.name)).toEqual(['site', 'app']);
      expect(copied.map(shape)).toEqual(own.map(shape));
      expect(copied.map((r: any) => [r.status, r.isDeployed])).toEqual([
        ['NOT_DEPLOYED', false],
        ['NOT_DEPLOYED', false],
      ]);
      // the sensitive value goes along sealed, as stored
      const sealed = async (id: string) =>
        (await t.app.services.database.executeSql(`select configurations::text as c from stage_resources where stage_id = '${id}' and name = 'app'`)).rows[0].c;
      expect(await sealed(replicaId)).toBe(await sealed(envId));
      expect((await api('DELETE', `/stages/${replicaId}`, writer.idToken)).statusCode).toBe(200);
    });

    it('keeps a referenced resource and a used component from removal', async () => {
      await api('PUT', `/stages/${envId}/resources/app`, writer.idToken, {
        name: 'app',
        componentId: config,
        configurations: [
          { key: 'service_name', value: 'web' },
          { key: 'backend_url', value: 'site.website_url', reference: true },
        ],
      });
      const blocked = await api('DELETE', `/stages/${envId}/resources/site`, writer.idToken);
      expect(blocked.statusCode).toBe(409);
      expect(blocked.json().message).toBe('app use outputs of site');
      expect((await api('GET', `/stages/${envId}/resources`, reader.idToken)).json().resources.map((r: any) => r.name)).toEqual(['site', 'app']);
      expect((await api('DELETE', `/stages/${envId}/resources/app`, reader.idToken)).statusCode).toBe(403);
      expect((await api('DELETE', `/stages/${envId}/resources/app`, writer.idToken)).statusCode).toBe(200);
      expect((await api('DELETE', `/stages/${envId}/resources/site`, writer.idToken)).statusCode).toBe(200);
      expect((await api('GET', `/stages/${envId}/resources`, outsider.idToken)).statusCode).toBe(404);
    });
  });
});
