import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { scheduleToCron, COST_TAG_KEY } from '@gantry/contracts';
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
import { expectEveryProjectRouteListed, expectProjectGuards, type GuardedRoute } from '../../../test/route-guards.js';

const verifier = acceptingCloudVerifier;
const ACCOUNT = '123456789012';

let t: TestApp;
let owner: { idToken: string };
let reader: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let starterProjectId: string;
const stateCalls: object[] = [];
const tagCalls: string[] = [];

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object, pid = projectId) =>
  t.app.inject({ method, url: `/ms-cloud-cost-optimizer/projects/${pid}${url}`, headers: bearer(token), payload });
const body = (patch: object = {}) => ({
  name: 'office hours',
  ...scheduleToCron({ days: ['MON', 'FRI'], wakeHour: 8, sleepHour: 18 }, 0),
  timezone: 'Europe/Berlin',
  awsAccountId: ACCOUNT,
  awsRegion: 'eu-central-1',
  resourcesTagKey: COST_TAG_KEY,
  resourcesTagValue: '6a1f7d3e-8c6e-4b0e-9b7a-1c2d3e4f5a6b',
  ...patch,
});

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      overrides: {
        cloudAccounts: { verifier },
        schedules: {
          changeState: async (_projectId, schedule, action) => {
            stateCalls.push({ schedule: schedule.name, tag: `${schedule.resourcesTagKey}=${schedule.resourcesTagValue}`, region: schedule.awsRegion, action });
            return { ec2: ['i-0aaa'], asg: [], rds: [] };
          },
          listResources: async () => ({ ec2: [], asg: [], rds: [] }),
          tag: async (_projectId, where, refs, tag, remove) => {
            tagCalls.push(`${remove ? 'untag' : 'tag'} ${where.awsRegion} ${refs.map((r) => `${r.type}:${r.id}`).join(',')} ${tag.key}=${tag.value.length}`);
          },
        },
      },
    },
  );
  owner = await registerUser(t, 'sched-owner@example.com');
  outsider = await registerUser(t, 'sched-outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Schedules');
  starterProjectId = await createProject(t, owner.idToken, 'Starter');
  reader = await addMember(t, owner.idToken, projectId, 'sched-reader@example.com', 'read');
  await grantPlan(t, owner.idToken, projectId);
  await connectAwsAccount(t, owner.idToken, projectId, ACCOUNT);
});
afterAll(async () => {
  await t?.close();
});

describe('saving schedules', () => {
  let id: string;

  it('creates, lists, updates and deletes a schedule of the project', async () => {
    const created = await call('POST', '/schedules', owner.idToken, body());
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'office hours',
      state: 'ENABLED',
      startExpression: 'cron(0 8 ? * MON,FRI *)',
      stopExpression: 'cron(0 18 ? * MON,FRI *)',
      resourcesTagKey: 'gantry:cost-optimizer',
    });
    id = created.json().id;
    expect((await call('GET', '/schedules', reader.idToken)).json().schedules.map((s: { id: string }) => s.id)).toEqual([id]);
    const updated = await call('PUT', `/schedules/${id}`, owner.idToken, body({ state: 'DISABLED' }));
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().state).toBe('DISABLED');
    expect((await call('DELETE', `/schedules/${id}`, owner.idToken)).statusCode).toBe(200);
    expect((await call('DELETE', `/schedules/${id}`, owner.idToken)).statusCode).toBe(404);
    expect((await call('GET', '/schedules', owner.idToken)).json().schedules).toEqual([]);
  });

  it('validates the expressions and the account', async () => {
    const noDays = await call('POST', '/schedules', owner.idToken, body({ startExpression: '' }));
    expect(noDays.statusCode).toBe(400);
    const badCron = await call('POST', '/schedules', owner.idToken, body({ stopExpression: 'at noon' }));
    expect(badCron.json()).toMatchObject({
      message: 'Please select at least one day and time range',
      fields: { stopExpression: ['Please select at least one day and time range'] },
    });
    const foreign = await call('POST', '/schedules', owner.idToken, body({ awsAccountId: '999999999999' }));
    expect(foreign.json().fields).toEqual({ awsAccountId: ['Please select an AWS account of this project'] });
  });

  it("starts or stops the schedule's resources now (Start All / Stop All)", async () => {
    const created = (await call('POST', '/schedules', owner.idToken, body({ name: 'nights' }))).json();
    const res = await call('POST', `/schedules/${created.id}/actions`, owner.idToken, { action: 'stop' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ec2: ['i-0aaa'], asg: [], rds: [] });
    expect(stateCalls).toEqual([
      { schedule: 'nights', tag: 'gantry:cost-optimizer=6a1f7d3e-8c6e-4b0e-9b7a-1c2d3e4f5a6b', region: 'eu-central-1', action: 'stop' },
    ]);
    expect((await call('POST', `/schedules/${created.id}/actions`, owner.idToken, { action: 'pause' })).statusCode).toBe(400);
    expect((await call('POST', `/schedules/${created.id}/actions`, reader.idToken, { action: 'start' })).statusCode).toBe(403);
    expect((await call('POST', `/schedules/${created.id}/actions`, outsider.idToken, { action: 'start' })).statusCode).toBe(404);
    expect((await call('POST', `/schedules/${created.id}/actions`, owner.idToken, { action: 'start' }, starterProjectId)).statusCode).toBe(402);
    expect(stateCalls).toHaveLength(1);
  });

  it('enforces roles, project boundaries and the plan', async () => {
    expect((await call('POST', '/schedules', reader.idToken, body())).statusCode).toBe(403);
    expect((await call('GET', '/schedules', outsider.idToken)).statusCode).toBe(404);
    const created = (await call('POST', '/schedules', owner.idToken, body())).json();
    // another project of the same user cannot reach it
    expect((await call('DELETE', `/schedules/${created.id}`, owner.idToken, undefined, starterProjectId)).statusCode).toBe(404);
    expect((await call('DELETE', `/schedules/${created.id}`, outsider.idToken)).statusCode).toBe(404);
    // a Starter project has no Cloud Waste Manager: the listing answers 402 (the UI hides the cost parts)
    const starter = await call('GET', '/schedules', owner.idToken, undefined, starterProjectId);
    expect(starter.statusCode).toBe(402);
    expect((await call('POST', '/schedules', owner.idToken, body(), starterProjectId)).statusCode).toBe(402);
  });
});

describe('saving schedules of the cost tool', () => {
  const chosen = (resources: object[], patch: object = {}) =>
    body({ selectBy: 'RESOURCES', resourcesTagKey: undefined, resourcesTagValue: undefined, resources, ...patch });

  it('creates from chosen resources (tagged with a generated value), edits them (tag added and removed), reads it back', async () => {
    tagCalls.length = 0;
    const created = await call(
      'POST',
      '/schedules',
      owner.idToken,
      chosen([
        { type: 'ec2', id: 'i-1' },
        { type: 'rds', id: 'db-1' },
      ]),
    );
    expect(created.statusCode, created.body).toBe(201);
    const s = created.json();
    expect(s).toMatchObject({ selectBy: 'RESOURCES', resourcesTagKey: 'gantry:cost-optimizer' });
    expect(s.resourcesTagValue).toMatch(/^[0-9a-f-]{36}$/);
    const updated = await call(
      'PUT',
      `/schedules/${s.id}`,
      owner.idToken,
      chosen(
        [
          { type: 'rds', id: 'db-1' },
          { type: 'asg', id: 'workers' },
        ],
        { name: 'renamed' },
      ),
    );
    expect(updated.json()).toMatchObject({ name: 'renamed', resourcesTagValue: s.resourcesTagValue });
    expect(tagCalls).toEqual([
      'tag eu-central-1 ec2:i-1,rds:db-1 gantry:cost-optimizer=36',
      'tag eu-central-1 asg:workers gantry:cost-optimizer=36',
      'untag eu-central-1 ec2:i-1 gantry:cost-optimizer=36',
    ]);
    const detail = await call('GET', `/schedules/${s.id}`, reader.idToken);
    expect(detail.json()).toMatchObject({
      schedule: { id: s.id, name: 'renamed' },
      resources: [
        { type: 'rds', id: 'db-1' },
        { type: 'asg', id: 'workers' },
      ],
    });
  });

  it('needs a resource when choosing resources, a tag when choosing by tag', async () => {
    const none = await call('POST', '/schedules', owner.idToken, chosen([]));
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('You should have at least one resource selected to create saving schedule');
    const noTag = await call('POST', '/schedules', owner.idToken, body({ selectBy: 'TAG', resourcesTagValue: '' }));
    expect(noTag.statusCode).toBe(400);
    expect(noTag.json().message).toBe('Please enter a tag key and value');
  });

  it('enables and disables (optionally starting the resources), lists runs and resources', async () => {
    const s = (await call('POST', '/schedules', owner.idToken, body({ name: 'toggle' }))).json();
    stateCalls.length = 0;
    const off = await call('PATCH', `/schedules/${s.id}/state`, owner.idToken, { state: 'DISABLED', startResources: true });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().state).toBe('DISABLED');
    expect(stateCalls).toMatchObject([{ schedule: 'toggle', action: 'start' }]);
    expect((await call('PATCH', `/schedules/${s.id}/state`, owner.idToken, { state: 'ENABLED' })).json().state).toBe('ENABLED');
    expect(stateCalls).toHaveLength(1);
    expect((await call('PATCH', `/schedules/${s.id}/state`, owner.idToken, { state: 'ON' })).statusCode).toBe(400);
    const runs = await call('GET', `/schedules/${s.id}/runs`, reader.idToken);
    expect(runs.json().runs).toMatchObject([{ action: 'start', trigger: 'MANUAL', status: 'SUCCEEDED', resources: { ec2: ['i-0aaa'] } }]);
    const resources = await call('GET', `/resources?awsAccountId=${ACCOUNT}&awsRegion=eu-west-1`, reader.idToken);
    expect(resources.json()).toEqual({ ec2: [], asg: [], rds: [] });
    expect((await call('GET', '/resources?awsAccountId=999999999999&awsRegion=eu-west-1', owner.idToken)).statusCode).toBe(404);
    expect((await call('GET', `/resources?awsAccountId=${ACCOUNT}`, owner.idToken)).statusCode).toBe(400);
  });

  it('enforces roles, project boundaries and the plan on the new routes', async () => {
    const s = (await call('POST', '/schedules', owner.idToken, body({ name: 'guarded' }))).json();
    expect((await call('PATCH', `/schedules/${s.id}/state`, reader.idToken, { state: 'DISABLED' })).statusCode).toBe(403);
    expect((await call('GET', `/schedules/${s.id}`, outsider.idToken)).statusCode).toBe(404);
    expect((await call('GET', `/schedules/${s.id}/runs`, owner.idToken, undefined, starterProjectId)).statusCode).toBe(402);
    expect((await call('GET', `/schedules/${s.id}`, owner.idToken, undefined, starterProjectId)).statusCode).toBe(402);
    expect((await call('PATCH', `/schedules/${s.id}/state`, owner.idToken, { state: 'DISABLED' }, starterProjectId)).statusCode).toBe(402);
    expect((await call('GET', `/resources?awsAccountId=${ACCOUNT}&awsRegion=eu-west-1`, owner.idToken, undefined, starterProjectId)).statusCode).toBe(402);
    expect((await call('GET', `/resources?awsAccountId=${ACCOUNT}&awsRegion=eu-west-1`, outsider.idToken)).statusCode).toBe(404);
  });
  it('guards every route: a reader changes nothing (403), another project sees nothing (404), no session is 401', async () => {
    const s = (await call('POST', '/schedules', owner.idToken, body({ name: 'every route' }))).json();
    const base = `/ms-cloud-cost-optimizer/projects/${projectId}`;
    const routes: GuardedRoute[] = [
      { method: 'GET', url: `${base}/schedules` },
      { method: 'POST', url: `${base}/schedules`, payload: body({ name: 'refused' }), change: true },
      { method: 'GET', url: `${base}/schedules/${s.id}` },
      { method: 'PUT', url: `${base}/schedules/${s.id}`, payload: body({ name: 'refused' }), change: true },
      { method: 'PATCH', url: `${base}/schedules/${s.id}/state`, payload: { state: 'DISABLED' }, change: true },
      { method: 'POST', url: `${base}/schedules/${s.id}/actions`, payload: { action: 'stop' }, change: true },
      { method: 'GET', url: `${base}/schedules/${s.id}/runs` },
      { method: 'DELETE', url: `${base}/schedules/${s.id}`, change: true },
      { method: 'GET', url: `${base}/resources?awsAccountId=${ACCOUNT}&awsRegion=eu-west-1` },
    ];
    await expectEveryProjectRouteListed(t, ['saving schedules'], routes);
    await expectProjectGuards(t, routes, { reader: reader.idToken, outsider: outsider.idToken });
  });
});
