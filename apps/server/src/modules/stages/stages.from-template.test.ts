import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { scheduleToCron, COST_TAG_KEY, StageFromTemplateBody } from '@gantry/contracts';
import {
  createTestApp,
  grantPlan,
  connectAwsAccount,
  registerUser,
  createProject,
  addMember,
  bearer,
  type TestApp,
  acceptingCloudVerifier,
} from '../../../test/helpers.js';
import { createStagesService } from './stages.service.js';
import { createStagesStore } from './stages.store.js';

const ACCOUNT = '123456789012';

let t: TestApp;
let owner: { idToken: string };
let writer: { idToken: string };
let reader: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let otherProjectId: string;

const api = (method: 'GET' | 'POST', url: string, token: string, payload?: object, pid = projectId) =>
  t.app.inject({ method, url: `/ms-engine/projects/${pid}${url}`, headers: bearer(token), payload });
const fromTemplate = (token: string, patch: object = {}, pid = projectId) => api('POST', '/stages/from-template', token, body(patch), pid);
const body = (patch: object = {}) => ({
  name: 'strapiEnv',
  description: 'Strapi',
  cloudProvider: 'aws',
  infrastructureAsCodeTool: 'cloudformation',
  awsAccountId: ACCOUNT,
  awsRegion: 'eu-central-1',
  template: 'strapi',
  templateValues: { DatabaseClient: 'sqlite', ImageUrl: 'strapi/strapi:4', DesiredReplicas: 1, Memory: 512, CPU: 256 },
  savingSchedule: { name: 'office hours', ...scheduleToCron({ days: ['MON', 'FRI'], wakeHour: 8, sleepHour: 18 }, 0), timezone: 'Europe/Berlin' },
  ...patch,
});

/** What the project holds in the database, whatever the API answers. */
async function stored(pid = projectId) {
  const sql = t.app.services.database.executeSql;
  const count = async (text: string) => Number((await sql(text, [pid])).rows[0].n);
  return {
    stages: await count('select count(*) as n from stages where project_id = $1'),
    resources: await count('select count(*) as n from stage_resources r join stages s on s.id = r.stage_id where s.project_id = $1'),
    schedules: await count('select count(*) as n from schedules where project_id = $1'),
  };
}
const schedulesOf = async (token: string) =>
  (await t.app.inject({ method: 'GET', url: `/ms-cloud-cost-optimizer/projects/${projectId}/schedules`, headers: bearer(token) })).json().schedules;

beforeAll(async () => {
  t = await createTestApp({}, { overrides: { cloudAccounts: { verifier: acceptingCloudVerifier } } });
  owner = await registerUser(t, 'tpl-owner@example.com');
  outsider = await registerUser(t, 'tpl-outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Templates');
  otherProjectId = await createProject(t, outsider.idToken, 'Other');
  writer = await addMember(t, owner.idToken, projectId, 'tpl-writer@example.com', 'write');
  reader = await addMember(t, owner.idToken, projectId, 'tpl-reader@example.com', 'read');
  // saving schedules are a plan feature
  await grantPlan(t, owner.idToken, projectId);
  await connectAwsAccount(t, owner.idToken, projectId, ACCOUNT);
});
afterAll(async () => {
  await t?.close();
});

describe('an environment from a template, in one call', () => {
  it("creates the environment, the template's resources in order with their values and references, and the saving schedule", async () => {
    const res = await fromTemplate(writer.idToken);
    expect(res.statusCode, res.body).toBe(201);
    const { stageId } = res.json();
    expect((await api('GET', `/stages/${stageId}`, reader.idToken)).json()).toMatchObject({
      name: 'strapiEnv',
      cloudProvider: 'aws',
      infrastructureAsCodeTool: 'cloudformation',
      awsAccountId: ACCOUNT,
    });
    const resources = (await api('GET', `/stages/${stageId}/resources`, reader.idToken)).json().resources;
    expect(resources.map((r: any) => [r.name, r.component.name, r.componentVersion])).toEqual([
      ['vpc', 'AWS VPC', 'LATEST'],
      ['infrastructure', 'Strapi Infrastructure', 'LATEST'],
      ['app', 'Fargate App Runner', 'LATEST'],
    ]);
    expect(resources[1].configurations).toEqual([
      { key: 'VpcId', value: 'vpc.VpcId', sensitive: false, reference: true },
      { key: 'SubnetIds', value: 'vpc.PublicSubnetIds', sensitive: false, reference: true },
      { key: 'DatabaseClient', value: 'sqlite', sensitive: false, reference: false },
    ]);
    expect(resources[2].configurations).toContainEqual({ key: 'ImageUrl', value: 'strapi/strapi:4', sensitive: false, reference: false });
    expect(resources[2].configurations).toContainEqual({ key: 'ClusterName', value: 'infrastructure.ClusterName', sensitive: false, reference: true });
    expect(await schedulesOf(reader.idToken)).toEqual([
      expect.objectContaining({
        name: 'office hours',
        state: 'ENABLED',
        awsAccountId: ACCOUNT,
        awsRegion: 'eu-central-1',
        timezone: 'Europe/Berlin',
        resourcesTagKey: COST_TAG_KEY,
        resourcesTagValue: stageId,
      }),
    ]);
    expect(await stored()).toEqual({ stages: 1, resources: 3, schedules: 1 });
  });

  it('creates the kubernetes template without a saving schedule', async () => {
    const res = await fromTemplate(owner.idToken, {
      name: 'eksEnv',
      template: 'kubernetes',
      templateValues: { Domain: 'example.com' },
      savingSchedule: undefined,
    });
    expect(res.statusCode, res.body).toBe(201);
    const resources = (await api('GET', `/stages/${res.json().stageId}/resources`, reader.idToken)).json().resources;
    expect(resources.map((r: any) => r.name)).toEqual(['vpc', 'cluster']);
    expect(resources[1].configurations).toContainEqual({ key: 'Domain', value: 'example.com', sensitive: false, reference: false });
    expect(await stored()).toEqual({ stages: 2, resources: 5, schedules: 1 });
  });

  it("a resource failing its checks answers the template toast's message and leaves no environment, resource or schedule", async () => {
    const before = await stored();
    // the second resource fails: vpc was already checked before it
    const bad = await fromTemplate(writer.idToken, { name: 'badClient', templateValues: { ...body().templateValues, DatabaseClient: 'postgres' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Creating environment from template failed. DatabaseClient must be one of sqlite, mysql');
    const missing = await fromTemplate(writer.idToken, { name: 'noImage', templateValues: { ...body().templateValues, ImageUrl: '' } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Creating environment from template failed. Image URL is required');
    expect((await api('GET', '/stages', reader.idToken)).json().stages.map((s: any) => s.name)).toEqual(['eksEnv', 'strapiEnv']);
    expect(await schedulesOf(reader.idToken)).toHaveLength(1);
    expect(await stored()).toEqual(before);
  });

  it('a write failing inside the transaction rolls back the environment and its resources', async () => {
    const { database, billing, components } = t.app.services;
    const stages = createStagesService({
      db: database.db,
      store: createStagesStore(database.db),
      billing,
      secrets: t.app.services.secrets,
      cloudAccount: async () => null,
      components: {
        schema: (pid, id, version) => components.versionSchema(pid, id, version),
        summary: async () => ({ id: '', name: '', type: '' }),
        idByName: async (pid, name) => (await components.list(pid)).find((c) => c.name === name)?.id,
      },
      // the schedule is the last write: the environment and its three resources are in the transaction by then
      schedules: {
        prepareCreate: async () => async () => {
          throw new Error('the schedule could not be written');
        },
      },
    });
    const before = await stored();
    await expect(stages.createFromTemplate(projectId, StageFromTemplateBody.parse(body({ name: 'halfWritten' })))).rejects.toThrow(
      'the schedule could not be written',
    );
    expect(await stored()).toEqual(before);
  });

  it('stage checks keep their own messages: a taken name is a conflict', async () => {
    const taken = await fromTemplate(writer.idToken, { name: 'strapiEnv' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('An environment named strapiEnv already exists');
  });

  it('validates the body', async () => {
    const bad = await fromTemplate(writer.idToken, { name: 'x', template: 'wordpress', savingSchedule: { name: '', startExpression: '', stopExpression: '' } });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(expect.arrayContaining(['name', 'template', 'savingSchedule.name']));
    const azure = await fromTemplate(writer.idToken, {
      name: 'azureEnv',
      cloudProvider: 'azurerm',
      infrastructureAsCodeTool: 'terraform',
      tenantId: 't',
      subscriptionId: 's',
    });
    expect(azure.statusCode).toBe(400);
    expect(azure.json().fields.savingSchedule).toEqual(['Saving schedules need the aws provider']);
  });

  it('is refused to a read member (403) and to another project (404)', async () => {
    const before = await stored();
    expect((await fromTemplate(reader.idToken, { name: 'byReader' })).statusCode).toBe(403);
    expect((await fromTemplate(outsider.idToken, { name: 'byOutsider' })).statusCode).toBe(404);
    expect((await fromTemplate(owner.idToken, { name: 'elsewhere' }, otherProjectId)).statusCode).toBe(404);
    expect(await stored()).toEqual(before);
  });
});
