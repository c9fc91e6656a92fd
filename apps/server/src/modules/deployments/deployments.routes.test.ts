import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { io as connect, type Socket } from 'socket.io-client';
import type { AddressInfo } from 'node:net';
import crypto from 'node:crypto';
import {
  createTestApp,
  connectAwsAccount,
  registerUser,
  createProject,
  awsProject,
  createStage,
  componentId,
  TEST_AWS_ACCOUNT,
  addMember,
  bearer,
  type TestApp,
  until,
  acceptingCloudVerifier,
} from '../../../test/helpers.js';
import { createDeploymentsStore } from './deployments.store.js';

/**
 * Deployments on the real terraform CLI (vendor components of `terraform_data` only: nothing is
 * downloaded): plan → deploy that plan → outputs → quick deploy → undeploy one resource → undeploy,
 * with roles, other projects, one run at a time, cancel, and secrets kept out of logs.
 */
const verifier = acceptingCloudVerifier;
const CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'ASIAFAKEKEY000001',
  AWS_SECRET_ACCESS_KEY: 'fake-secret-access-key-value',
  AWS_SESSION_TOKEN: 'fake-session-token-value',
};

let t: TestApp;
let runGate: Promise<void> = Promise.resolve();
let owner: { idToken: string };
let writer: { idToken: string };
let reader: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let otherProjectId: string;
let stageId: string;
let site: string;
let config: string;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object, pid = projectId) =>
  t.app.inject({
    method,
    url: `/ms-engine/projects/${pid}${url}`,
    headers: bearer(token),
    ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
  });

const stage = async () => (await call('GET', `/stages/${stageId}`, reader.idToken)).json();
const settled = (id: string) =>
  until(
    async () => (await call('GET', `/stages/${stageId}/deployments/${id}`, reader.idToken)).json(),
    (d) => !d.status.endsWith('IN_PROGRESS') && d.status !== 'DEPLOY_QUEUED',
    `deployment ${id}`,
  );
const logText = async (id: string) =>
  (await call('GET', `/stages/${stageId}/deployments/${id}/logs`, reader.idToken))
    .json()
    .chunks.map((c: { text: string }) => c.text)
    .join('\n');

beforeAll(async () => {
  // a run waits here while a test holds the gate: a cancel then lands on a running deployment, whatever the machine's load
  t = await createTestApp(
    {},
    {
      overrides: {
        cloudAccounts: { verifier },
        deployments: {
          credentialsFor: async () => {
            await runGate;
            return CREDENTIALS;
          },
        },
      },
    },
  );
  owner = await registerUser(t, 'dep-owner@example.com');
  outsider = await registerUser(t, 'dep-outsider@example.com');
  projectId = await awsProject(t, owner.idToken, 'Deployments', { plan: 'PRO' });
  otherProjectId = await createProject(t, outsider.idToken, 'Other');
  writer = await addMember(t, owner.idToken, projectId, 'dep-writer@example.com', 'write');
  reader = await addMember(t, owner.idToken, projectId, 'dep-reader@example.com', 'read');
  stageId = await createStage(t, writer.idToken, projectId);
  site = await componentId(t, reader.idToken, projectId, 'Static site bucket');
  config = await componentId(t, reader.idToken, projectId, 'Service config');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('deployments (real terraform)', () => {
  it('refuses to deploy an environment without resources', async () => {
    const res = await call('POST', `/stages/${stageId}/deploy`, writer.idToken);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Add a resource to the environment before deploying it');
  });

  it('plans two resources, one referencing the other, and deploys exactly that plan', async () => {
    expect(
      (
        await call('POST', `/stages/${stageId}/resources`, writer.idToken, {
          name: 'site',
          componentId: site,
          configurations: [{ key: 'bucket_name', value: 'my-site' }],
        })
      ).statusCode,
    ).toBe(201);
    const app = await call('POST', `/stages/${stageId}/resources`, writer.idToken, {
      name: 'app',
      componentId: config,
      configurations: [
        { key: 'service_name', value: 'web' },
        { key: 'backend_url', value: 'site.website_url', reference: true },
        { key: 'api_key', value: 'sup3r-s3cret-k3y' },
      ],
    });
    expect(app.statusCode, app.body).toBe(201);

    expect((await call('POST', `/stages/${stageId}/plans`, reader.idToken)).statusCode).toBe(403);
    expect((await call('POST', `/stages/${stageId}/plans`, outsider.idToken, undefined, projectId)).statusCode).toBe(404);
    const started = await call('POST', `/stages/${stageId}/plans`, writer.idToken);
    expect(started.statusCode, started.body).toBe(202);
    const planId = started.json().planId;
    const plan = await until(
      async () => (await call('GET', `/stages/${stageId}/plans/${planId}`, reader.idToken)).json(),
      (p) => p.status !== 'CREATING',
      'the plan',
    );
    expect(plan.error).toBeNull();
    expect(plan).toMatchObject({ status: 'READY', summary: { add: 2, change: 0, destroy: 0 } });
    expect(plan.changes.map((c: { resourceName: string; action: string; name: string }) => [c.resourceName, c.action, c.name]).sort()).toEqual([
      ['app', 'create', 'Service config'],
      ['site', 'create', 'Static site bucket'],
    ]);
    expect((await call('GET', `/stages/${stageId}/plans/${planId}`, outsider.idToken, undefined, otherProjectId)).statusCode).toBe(404);

    expect((await call('POST', `/stages/${stageId}/plans/${planId}/deploy`, reader.idToken)).statusCode).toBe(403);
    const applied = await call('POST', `/stages/${stageId}/plans/${planId}/deploy`, writer.idToken);
    expect(applied.statusCode, applied.body).toBe(202);
    expect(applied.json().status).toBe('CREATE_IN_PROGRESS'); // a slot of this worker took it as it was queued
    const done = await settled(applied.json().deploymentId);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ kind: 'PLAN_APPLY', status: 'CREATE_COMPLETE', planId });
    expect(done.resources.map((r: { name: string; version: string }) => r.name)).toEqual(['site', 'app']);
    expect(await stage()).toMatchObject({ status: 'CREATE_COMPLETE', currentDeploymentId: done.id, lastDeploymentId: done.id });
    expect((await stage()).lastDeployed).not.toBeNull();
    const resources = (await call('GET', `/stages/${stageId}/resources`, reader.idToken)).json().resources;
    expect(resources.map((r: { name: string; status: string; isDeployed: boolean }) => [r.name, r.status, r.isDeployed])).toEqual([
      ['site', 'CREATE_COMPLETE', true],
      ['app', 'CREATE_COMPLETE', true],
    ]);
    // the plan was used up
    expect((await call('GET', `/stages/${stageId}/plans/${planId}`, reader.idToken)).json().status).toBe('APPLIED');
    expect((await call('POST', `/stages/${stageId}/plans/${planId}/deploy`, writer.idToken)).statusCode).toBe(409);
    // a member of another project naming this environment and plan in their own project's URL learns nothing of it
    const elsewhere = await call('POST', `/stages/${stageId}/plans/${planId}/deploy`, outsider.idToken, undefined, otherProjectId);
    expect(elsewhere.statusCode, elsewhere.body).toBe(404);

    const log = await logText(done.id);
    expect(log).toContain('Apply complete!');
    for (const secret of ['sup3r-s3cret-k3y', ...Object.values(CREDENTIALS)]) expect(log).not.toContain(secret);
  });

  it('reads outputs from the state, the referenced value passed through and sensitive ones hidden', async () => {
    const outputs = (await call('GET', `/stages/${stageId}/resources/site/outputs`, reader.idToken)).json().outputs;
    expect(outputs).toContainEqual({ key: 'website_url', value: 'http://my-site.s3-website.us-east-1.amazonaws.com', sensitive: false });
    const app = (await call('GET', `/stages/${stageId}/resources/app/outputs`, reader.idToken)).json().outputs;
    expect(app).toContainEqual({ key: 'api_key', value: '(sensitive)', sensitive: true });
    expect(JSON.parse(app.find((o: { key: string }) => o.key === 'config_json').value)).toMatchObject({
      backend_url: 'http://my-site.s3-website.us-east-1.amazonaws.com',
      service: 'web',
    });
    expect((await call('GET', `/stages/${stageId}/resources/nope/outputs`, reader.idToken)).statusCode).toBe(404);
    expect((await call('GET', `/stages/${stageId}/resources/site/outputs`, outsider.idToken)).statusCode).toBe(404);
  });

  it('quick-deploys a change as an update, one deployment at a time, and lists the history latest first', async () => {
    await call('PUT', `/stages/${stageId}/resources/site`, writer.idToken, {
      name: 'site',
      componentId: site,
      configurations: [
        { key: 'bucket_name', value: 'my-site' },
        { key: 'index_document', value: 'home.html' },
      ],
    });
    expect((await call('POST', `/stages/${stageId}/deploy`, reader.idToken)).statusCode).toBe(403);
    const first = await call('POST', `/stages/${stageId}/deploy`, writer.idToken);
    expect(first.statusCode, first.body).toBe(202);
    const second = await call('POST', `/stages/${stageId}/deploy`, writer.idToken);
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe('A deployment of this environment is already running');
    const done = await settled(first.json().deploymentId);
    expect(done).toMatchObject({ kind: 'DEPLOY', status: 'UPDATE_COMPLETE', error: null });
    const history = (await call('GET', `/stages/${stageId}/deployments`, reader.idToken)).json();
    expect(history.limitedByPlan).toBe(false);
    expect(history.deployments.map((d: { kind: string; status: string }) => [d.kind, d.status])).toEqual([
      ['DEPLOY', 'UPDATE_COMPLETE'],
      ['PLAN_APPLY', 'CREATE_COMPLETE'],
    ]);
    expect(history.deployments[0].currentDeploymentId).toBe(done.id);
    const older = (await call('GET', `/stages/${stageId}/deployments?lastDeploymentId=${done.id}`, reader.idToken)).json();
    expect(older.deployments.map((d: { kind: string }) => d.kind)).toEqual(['PLAN_APPLY']);
    expect((await call('GET', `/stages/${stageId}/deployments`, outsider.idToken)).statusCode).toBe(404);
    const time = (
      await t.app.inject({ method: 'GET', url: `/ms-elasticsearch/projects/${projectId}/deployment-time`, headers: bearer(reader.idToken) })
    ).json();
    expect(time.deploymentTime).toBeGreaterThan(0);
    expect(time.stages).toEqual([{ stageId, name: 'staging', deploymentTime: time.deploymentTime }]);
  });

  it('puts its deployments on the project timeline, and tells the members of each finished one (entityType STAGE)', async () => {
    const timeline = async (query: string) =>
      (await t.app.inject({ method: 'GET', url: `/ms-elasticsearch/projects/${projectId}/timeline${query}`, headers: bearer(reader.idToken) })).json().events;
    const deployments = await timeline('?type=Deployment');
    expect(
      deployments
        .slice(0, 2)
        .map((e: { status: string; stageName: string; stageId: string; entityType: string }) => [e.status, e.stageName, e.stageId, e.entityType]),
    ).toEqual([
      ['UPDATE_COMPLETE', 'staging', stageId, 'STAGE'],
      ['CREATE_COMPLETE', 'staging', stageId, 'STAGE'],
    ]);
    expect(await timeline('?type=build')).toEqual([]);
    const all = await timeline('');
    expect(all.length).toBeGreaterThanOrEqual(2);
    expect(all.map((e: { timestamp: string }) => e.timestamp)).toEqual([...all.map((e: { timestamp: string }) => e.timestamp)].sort().reverse());
    // a run's notifications are written after its end is told (a turn of the event loop later)
    const notes = await until(
      async () =>
        (await t.app.inject({ method: 'GET', url: '/ms-notification/notifications', headers: bearer(reader.idToken) }))
          .json()
          .notifications.filter((n: { entityType: string }) => n.entityType === 'STAGE'),
      (n: unknown[]) => n.length >= 2,
      'the notifications of both deployments',
    );
    expect(notes.slice(0, 2)).toMatchObject([
      { message: 'Deployment of staging succeeded', itemId: stageId, author: 'Mem Ber' },
      { message: 'Deployment of staging succeeded', itemId: stageId },
    ]);
  });

  it("keeps a deleted environment's deployments on the timeline, under its name (the overview says it is gone)", async () => {
    const doomedId = await createStage(t, writer.idToken, projectId, { name: 'doomed', description: 'Deleted soon' });
    await t.app.services.database.executeSql(
      `insert into deployments (stage_id, project_id, kind, status, active, started_at, finished_at) values ('${doomedId}', '${projectId}', 'UNDEPLOY', 'DELETE_COMPLETE', false, now(), now())`,
    );
    expect((await call('DELETE', `/stages/${doomedId}`, writer.idToken)).statusCode).toBe(200);
    const timeline = async (token: string, pid = projectId) =>
      (await t.app.inject({ method: 'GET', url: `/ms-elasticsearch/projects/${pid}/timeline?type=Deployment`, headers: bearer(token) })).json().events;
    const events = await timeline(reader.idToken);
    expect(events[0]).toMatchObject({ stageId: doomedId, stageName: 'doomed', status: 'DELETE_COMPLETE', entityType: 'STAGE' });
    expect(events.filter((e: { stageId: string }) => e.stageId === doomedId)).toHaveLength(1);
    expect(events.some((e: { stageId: string }) => e.stageId === stageId)).toBe(true);
    expect((await timeline(outsider.idToken, otherProjectId)).some((e: { stageId: string }) => e.stageId === doomedId)).toBe(false);
  });

  it('streams the live log over the websocket', async () => {
    const address = t.app.server.address() as AddressInfo | null;
    if (!address) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const socket: Socket = connect(`http://127.0.0.1:${port}`, {
      path: '/ms-realtime/websockets/',
      query: { Authorization: `Bearer ${reader.idToken}` },
      transports: ['websocket'],
    });
    try {
      // what the socket heard, in order: the log's chunks and the run's statuses (its project's room)
      const heard: string[] = [];
      socket.on('deployment:update', (e: { status: string }) => heard.push(`status ${e.status}`));
      expect(await socket.timeout(10_000).emitWithAck('project:join', projectId)).toEqual({ ok: true });
      const started = (await call('POST', `/stages/${stageId}/deploy`, writer.idToken)).json();
      const texts: string[] = [];
      socket.on('logs', (c: { deploymentId: string; text: string }) => {
        if (c.deploymentId !== started.deploymentId) return;
        texts.push(c.text);
        heard.push(`log ${c.text}`);
      });
      const ack = await socket
        .timeout(10_000)
        .emitWithAck('deployment-logs:subscribe', { projectId, stageId, deploymentId: started.deploymentId, typeOfLogs: 'terraform' });
      expect(ack).toEqual({ ok: true });
      heard.push('subscribed');
      await settled(started.deploymentId);
      await until(
        async () => texts.join('\n'),
        (s) => s.includes('[gantry] UPDATE_COMPLETE'),
        'the last log line',
      );
      expect(texts.join('\n')).toContain('terraform apply');
      // the last lines are stored with the run's end and heard before it
      await until(
        async () => heard,
        (h) => h.includes('status UPDATE_COMPLETE'),
        'the end',
      );
      // (a run that ended before the subscription answered has its lines from the stored backlog, after its end)
      if (heard.indexOf('subscribed') < heard.indexOf('status UPDATE_COMPLETE'))
        expect(heard.findIndex((h) => h.startsWith('log') && h.includes('[gantry] UPDATE_COMPLETE'))).toBeLessThan(heard.indexOf('status UPDATE_COMPLETE'));
      else console.warn('the run ended before the log subscription: the order of its last lines and its end was not seen live');
      const refused = await socket
        .timeout(10_000)
        .emitWithAck('deployment-logs:subscribe', { projectId: otherProjectId, stageId, deploymentId: started.deploymentId, typeOfLogs: 'terraform' });
      expect(refused).toEqual({ ok: false, message: 'Project not found' });
    } finally {
      socket.close();
    }
  });

  it('undeploys one resource, then the environment, and the environment can be deleted', async () => {
    expect((await call('POST', `/stages/${stageId}/resources/app/undeploy`, reader.idToken)).statusCode).toBe(403);
    const one = await call('POST', `/stages/${stageId}/resources/app/undeploy`, writer.idToken);
    expect(one.statusCode, one.body).toBe(202);
    expect(await settled(one.json().deploymentId)).toMatchObject({ kind: 'UNDEPLOY_RESOURCE', status: 'DELETE_COMPLETE', resourceName: 'app' });
    const resources = (await call('GET', `/stages/${stageId}/resources`, reader.idToken)).json().resources;
    expect(resources.map((r: { name: string; isDeployed: boolean }) => [r.name, r.isDeployed])).toEqual([
      ['site', true],
      ['app', false],
    ]);
    expect((await stage()).status).toBe('UPDATE_COMPLETE');

    expect((await call('DELETE', `/stages/${stageId}`, writer.idToken)).statusCode).toBe(409);
    const all = await call('POST', `/stages/${stageId}/undeploy`, writer.idToken);
    expect(all.statusCode, all.body).toBe(202);
    expect(all.json().status).toBe('DELETE_IN_PROGRESS');
    expect(await settled(all.json().deploymentId)).toMatchObject({ kind: 'UNDEPLOY', status: 'DELETE_COMPLETE' });
    expect((await stage()).status).toBe('DELETE_COMPLETE');
    expect((await call('GET', `/stages/${stageId}/resources/site/outputs`, reader.idToken)).json().outputs).toEqual([]);
    expect((await call('POST', `/stages/${stageId}/undeploy`, writer.idToken)).statusCode).toBe(409);
    expect((await call('GET', `/stages/${stageId}/events`, reader.idToken)).json()).toEqual({ events: [] });
    expect((await call('POST', `/stages/${stageId}/continue-rollback`, writer.idToken)).statusCode).toBe(409);
    expect((await call('GET', `/stages/${stageId}/deployments/${all.json().deploymentId}/logs`, outsider.idToken)).statusCode).toBe(404);
  });

  it('cancels a running deployment: it ends failed with the reason and the state is not left locked', async () => {
    // the cancel lands while the run has started but not yet reached terraform: it must stop there, cleanly
    await call('PUT', `/stages/${stageId}/resources/app`, writer.idToken, {
      name: 'app',
      componentId: config,
      configurations: [{ key: 'service_name', value: 'slow' }],
    });
    let release!: () => void;
    runGate = new Promise((resolve) => {
      release = resolve;
    });
    const started = (await call('POST', `/stages/${stageId}/deploy`, writer.idToken)).json();
    expect((await call('POST', `/stages/${stageId}/cancel`, reader.idToken)).statusCode).toBe(403);
    const cancelled = await call('POST', `/stages/${stageId}/cancel`, writer.idToken);
    release();
    runGate = Promise.resolve();
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const done = await settled(started.deploymentId);
    expect(done.status).toBe('CREATE_FAILED');
    expect(done.error).toBe('Deployment cancelled');
    expect((await stage()).status).toBe('CREATE_FAILED');
    expect((await call('POST', `/stages/${stageId}/cancel`, writer.idToken)).statusCode).toBe(409);
    // nothing stays locked: the next deployment runs to completion
    const again = (await call('POST', `/stages/${stageId}/deploy`, writer.idToken)).json();
    expect(await settled(again.deploymentId)).toMatchObject({ status: 'CREATE_COMPLETE', error: null });
  });

  it('marks a deployment whose worker died as failed with the reason', async () => {
    await t.app.services.database.executeSql(
      `insert into deployments (stage_id, project_id, kind, status, active, started_at, heartbeat_at, worker_id) values ('${stageId}', '${projectId}', 'DEPLOY', 'UPDATE_IN_PROGRESS', true, now() - interval '5 minutes', now() - interval '5 minutes', 'dead-host:1:abc')`,
    );
    expect((await call('POST', `/stages/${stageId}/deploy`, writer.idToken)).statusCode).toBe(409);
    await t.app.services.deployments.recoverNow();
    const latest = (await call('GET', `/stages/${stageId}/deployments`, reader.idToken)).json().deployments[0];
    expect(latest).toMatchObject({ status: 'UPDATE_FAILED', error: expect.stringContaining('The worker running this deployment stopped') });
    expect((await stage()).status).toBe('UPDATE_FAILED');
    expect(await logText(latest.id)).toContain('The worker running this deployment stopped');
  });
});

describe('deployment rules checked before anything runs (a Starter project: no deployment insights, 500 build minutes)', () => {
  let starter: string;
  let starterStage: string;
  const sql = (q: string) => t.app.services.database.executeSql(q);
  const s = (url: string) => `/stages/${starterStage}${url}`;
  // a run that ended at `at` after `minutes`, its end written as a run's end is (the minutes counter with it)
  const fakeRun = async (minutes: number, at = 'now()') => {
    const { rows } = await sql(`insert into deployments (stage_id, project_id, kind, status, active, created_at, started_at)
         values ('${starterStage}', '${starter}', 'DEPLOY', 'UPDATE_COMPLETE', false, ${at}, date_trunc('milliseconds', ${at}) - interval '${minutes} minutes')
         returning id, date_trunc('milliseconds', ${at}) as "endedAt"`);
    const { id, endedAt } = rows[0] as { id: string; endedAt: string | Date };
    await createDeploymentsStore(t.app.services.database.db).endRun(id, { finishedAt: new Date(endedAt) }, { stageId: starterStage });
  };

  beforeAll(async () => {
    starter = await createProject(t, owner.idToken, 'Starter');
    await connectAwsAccount(t, owner.idToken, starter, TEST_AWS_ACCOUNT, { name: 'dev', externalId: 'ext-2' });
    starterStage = await createStage(t, owner.idToken, starter, { name: 'sandbox', description: 'Sandbox' });
    const res = await call(
      'POST',
      s('/resources'),
      owner.idToken,
      { name: 'svc', componentId: config, configurations: [{ key: 'service_name', value: 'svc' }] },
      starter,
    );
    expect(res.statusCode, res.body).toBe(201);
  });

  it('answers 400 for malformed ids and queries', async () => {
    expect((await call('POST', '/stages/not-a-uuid/deploy', owner.idToken, undefined, starter)).statusCode).toBe(400);
    expect((await call('GET', s('/deployments?limit=0'), owner.idToken, undefined, starter)).statusCode).toBe(400);
    expect((await call('GET', s('/deployments?lastDeploymentId=nope'), owner.idToken, undefined, starter)).statusCode).toBe(400);
    expect((await call('GET', s('/deployments/nope'), owner.idToken, undefined, starter)).statusCode).toBe(400);
    expect((await call('GET', s('/plans/nope'), owner.idToken, undefined, starter)).statusCode).toBe(400);
    expect((await call('GET', s(`/deployments/${starterStage}`), owner.idToken, undefined, starter)).statusCode).toBe(404);
    expect((await call('GET', s(`/plans/${starterStage}`), owner.idToken, undefined, starter)).statusCode).toBe(404);
  });

  it('refuses to deploy or plan without the target account (400)', async () => {
    await sql(`update stages set aws_account_id = null where id = '${starterStage}'`);
    try {
      for (const url of ['/deploy', '/plans']) {
        const res = await call('POST', s(url), owner.idToken, undefined, starter);
        expect([res.statusCode, res.json().message]).toEqual([400, 'Please select the cloud account of this environment first']);
      }
    } finally {
      await sql(`update stages set aws_account_id = '${TEST_AWS_ACCOUNT}' where id = '${starterStage}'`);
    }
  });

  it('refuses a quick deploy of a stack in ROLLBACK_COMPLETE or REVIEW_IN_PROGRESS (409)', async () => {
    try {
      for (const status of ['ROLLBACK_COMPLETE', 'REVIEW_IN_PROGRESS']) {
        await sql(`update stages set status = '${status}' where id = '${starterStage}'`);
        const res = await call('POST', s('/deploy'), owner.idToken, undefined, starter);
        expect([res.statusCode, res.json().message]).toEqual([409, `Stack is in ${status} status, you must undeploy it first`]);
      }
    } finally {
      await sql(`update stages set status = 'NOT_DEPLOYED' where id = '${starterStage}'`);
    }
  });

  it('refuses to deploy while a plan of the environment is being created (409)', async () => {
    await sql(`insert into deployment_plans (stage_id, project_id, status) values ('${starterStage}', '${starter}', 'CREATING')`);
    try {
      const res = await call('POST', s('/deploy'), owner.idToken, undefined, starter);
      expect([res.statusCode, res.json().message]).toEqual([409, 'A plan of this environment is being created; wait for it to finish']);
      expect((await call('POST', s('/plans'), owner.idToken, undefined, starter)).statusCode).toBe(409);
    } finally {
      await sql(`delete from deployment_plans where stage_id = '${starterStage}'`);
    }
  });

  it('shows only the latest deployment without deployment insights', async () => {
    await fakeRun(2, `now() - interval '1 minute'`);
    await fakeRun(3);
    const history = await call('GET', s('/deployments'), owner.idToken, undefined, starter);
    expect(history.statusCode).toBe(200);
    expect(history.json().limitedByPlan).toBe(true);
    expect(history.json().deployments.map((d: { durationMs: number }) => d.durationMs)).toEqual([3 * 60_000]);
    expect((await call('GET', s('/deployments'), outsider.idToken, undefined, starter)).statusCode).toBe(404);
  });

  it("counts deployment minutes against the plan's build minutes (402 once exceeded) and reports them per environment", async () => {
    const time = await t.app.inject({ method: 'GET', url: `/ms-elasticsearch/projects/${starter}/deployment-time`, headers: bearer(owner.idToken) });
    expect(time.json()).toEqual({ deploymentTime: 5 * 60_000, stages: [{ stageId: starterStage, name: 'sandbox', deploymentTime: 5 * 60_000 }] });
    expect(
      (await t.app.inject({ method: 'GET', url: `/ms-elasticsearch/projects/${starter}/deployment-time`, headers: bearer(outsider.idToken) })).statusCode,
    ).toBe(404);
    await fakeRun(500);
    const refused = await call('POST', s('/deploy'), owner.idToken, undefined, starter);
    expect([refused.statusCode, refused.json().message]).toEqual([402, 'Your plan allows 500 build minutes. Upgrade your plan to get more.']);
    expect((await call('POST', s('/plans'), owner.idToken, undefined, starter)).statusCode).toBe(402);
  });

  it('keeps the minutes the plan check reads as a running counter equal to the report, a second end of a run adding nothing', async () => {
    const store = createDeploymentsStore(t.app.services.database.db);
    const report = async () =>
      (await t.app.inject({ method: 'GET', url: `/ms-elasticsearch/projects/${starter}/deployment-time`, headers: bearer(owner.idToken) })).json()
        .deploymentTime;
    expect(await store.usedMs(starter)).toBe(await report());
    const { rows } = await sql(`insert into deployments (stage_id, project_id, kind, status, active, started_at)
         values ('${starterStage}', '${starter}', 'DEPLOY', 'UPDATE_IN_PROGRESS', false, date_trunc('milliseconds', now()) - interval '2 minutes') returning id`);
    const id = (rows[0] as { id: string }).id;
    const before = await store.usedMs(starter);
    await store.endRun(id, { status: 'UPDATE_COMPLETE', finishedAt: new Date() }, { stageId: starterStage });
    const after = await store.usedMs(starter);
    expect(Math.abs(after - before - 2 * 60_000)).toBeLessThan(5_000);
    expect(after).toBe(await report());
    await store.endRun(id, { status: 'UPDATE_FAILED', finishedAt: new Date(Date.now() + 60_000) }, { stageId: starterStage });
    expect(await store.usedMs(starter)).toBe(after);
  });

  it("writes a run's end in one statement: counted once when two ends race, its last lines, the state it left and the plans it made stale", async () => {
    const store = createDeploymentsStore(t.app.services.database.db);
    const { rows } = await sql(`insert into deployments (stage_id, project_id, kind, status, active, started_at)
         values ('${starterStage}', '${starter}', 'DEPLOY', 'UPDATE_IN_PROGRESS', true, date_trunc('milliseconds', now()) - interval '3 minutes') returning id`);
    const id = (rows[0] as { id: string }).id;
    const plan = await store.insertPlan({ stageId: starterStage, projectId: starter, createdBy: null, resources: [] });
    await store.setPlanStatus(plan.id, { status: 'READY' });
    const before = await store.usedMs(starter);
    // two ends at once (a worker's and a recovery's), each in a transaction of its own: the second is written while the
    // first is not committed yet (on PostgreSQL it waits for the first's row lock; on PGlite for its transaction)
    let firstWritten!: () => void;
    const written = new Promise<void>((r) => (firstWritten = r));
    const end = (status: string, seq: number, finishedAt: Date, hold?: boolean) =>
      t.app.services.database.db.transaction(async (tx) => {
        const ended = await store.endRun(
          id,
          { status, active: false, processId: null, finishedAt },
          { stageId: starterStage, sealed: `sealed-${seq}`, chunk: { seq, text: `last line ${seq}` } },
          tx,
        );
        if (hold) {
          firstWritten();
          await new Promise((r) => setTimeout(r, 300));
        }
        return ended;
      });
    const firstEnd = end('UPDATE_COMPLETE', 0, new Date(), true);
    await Promise.race([written, firstEnd]);
    const [first, second] = await Promise.all([firstEnd, end('UPDATE_FAILED', 1, new Date(Date.now() + 60_000))]);
    expect(Math.abs((await store.usedMs(starter)) - before - 3 * 60_000)).toBeLessThan(5_000);
    expect([first.row?.id, second.row?.id]).toEqual([id, id]);
    expect([first.row?.active, first.row?.finishedAt instanceof Date]).toEqual([false, true]);
    // whichever came first expired the plan (and told it); the other found none left
    expect([...first.expired, ...second.expired]).toEqual([
      { id: plan.id, stageId: starterStage, projectId: starter, status: 'EXPIRED', error: null, planFile: null },
    ]);
    expect((await store.logs(id)).map((c) => c.text)).toEqual(['last line 0', 'last line 1']);
    expect(['sealed-0', 'sealed-1']).toContain(await store.sealedState(starterStage));
    // a run gone meanwhile: nothing written of it, nothing told
    expect(
      await store.endRun(crypto.randomUUID(), { status: 'UPDATE_COMPLETE', finishedAt: new Date() }, { stageId: starterStage, chunk: { seq: 0, text: 'x' } }),
    ).toEqual({
      row: undefined,
      expired: [],
    });
    await sql(`delete from deployments where id = '${id}'`);
  });
});
