import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { io as ioClient, type Socket } from 'socket.io-client';
import type { DeploymentUpdateEvent, StageUpdateEvent } from '@gantry/contracts';
import {
  createTestApp,
  registerUser,
  awsProject,
  createStage,
  componentId,
  bearer,
  until,
  acceptingCloudVerifier,
  type TestApp,
} from '../../../test/helpers.js';
import { REALTIME_PATH } from '../../platform/realtime.js';
import { createDeploymentsStore } from './deployments.store.js';
import { createStagesStore } from '../stages/stages.store.js';
import { createStatusWrites } from './status-events.js';

/**
 * Deployment and environment statuses told to the project room (issue 13): a Quick Deploy on the real
 * terraform CLI (a vendor component of `terraform_data`) tells every status of the run and of its
 * environment once written, only to members of that project; a status write that rolls back tells nothing.
 */
let t: TestApp;
let url: string;
const sockets: Socket[] = [];

async function projectWithStage(email: string, name: string) {
  const owner = await registerUser(t, email);
  const projectId = await awsProject(t, owner.idToken, name, { plan: 'PRO' });
  const api = (method: 'GET' | 'POST', path: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/ms-engine/projects/${projectId}${path}`,
      headers: bearer(owner.idToken),
      ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
    });
  const stageId = await createStage(t, owner.idToken, projectId);
  const site = await componentId(t, owner.idToken, projectId, 'Static site bucket');
  const added = await api('POST', `/stages/${stageId}/resources`, { name: 'site', componentId: site, configurations: [{ key: 'bucket_name', value: name }] });
  expect(added.statusCode, added.body).toBe(201);
  return { owner, projectId, stageId, api };
}

/** A socket of the user in the project's room, recording the deployment and environment events it receives. */
async function listener(idToken: string, projectId: string) {
  const sock = ioClient(url, { path: REALTIME_PATH, query: { Authorization: idToken }, transports: ['websocket'], reconnection: false });
  sockets.push(sock);
  const seen = { deployments: [] as DeploymentUpdateEvent[], stages: [] as StageUpdateEvent[] };
  sock.on('deployment:update', (e: DeploymentUpdateEvent) => seen.deployments.push(e));
  sock.on('stage:update', (e: StageUpdateEvent) => seen.stages.push(e));
  expect(await sock.emitWithAck('project:join', projectId)).toEqual({ ok: true });
  return { sock, seen };
}

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      overrides: {
        cloudAccounts: { verifier: acceptingCloudVerifier },
        deployments: { credentialsFor: async () => ({ AWS_ACCESS_KEY_ID: 'ASIAFAKE', AWS_SECRET_ACCESS_KEY: 'fake', AWS_SESSION_TOKEN: 'fake' }) },
      },
    },
  );
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

describe('deployment and environment status events', () => {
  let a: Awaited<ReturnType<typeof projectWithStage>>;
  let deploymentId: string;

  it('reach the project room once written, from started to finished, and never another project', async () => {
    a = await projectWithStage('dep-status-a@example.com', 'alpha');
    const b = await projectWithStage('dep-status-b@example.com', 'beta');
    const ofA = await listener(a.owner.idToken, a.projectId);
    const ofB = await listener(b.owner.idToken, b.projectId);

    // what the database held when each event arrived: never behind the event
    const storedAtEvent: { event: string; stored: string }[] = [];
    ofA.sock.on('deployment:update', (e: DeploymentUpdateEvent) => {
      void a.api('GET', `/stages/${a.stageId}/deployments/${e.id}`).then((res) => storedAtEvent.push({ event: e.status, stored: res.json().status }));
    });

    const deploy = async (p: typeof a) => {
      const started = await p.api('POST', `/stages/${p.stageId}/deploy`);
      expect(started.statusCode, started.body).toBe(202);
      return started.json().deploymentId as string;
    };
    const finished = (p: typeof a, id: string) =>
      until(
        async () => (await p.api('GET', `/stages/${p.stageId}/deployments/${id}`)).json(),
        (d) => d.status === 'CREATE_COMPLETE' || d.status.includes('FAILED'),
        'the deployment to finish',
      );
    deploymentId = await deploy(a);
    const ofBDeployment = await deploy(b);
    for (const done of [await finished(a, deploymentId), await finished(b, ofBDeployment)])
      expect(done).toMatchObject({ status: 'CREATE_COMPLETE', error: null });

    await until(
      async () => [ofA.seen.deployments.map((e) => e.status), ofA.seen.stages.map((e) => e.status), storedAtEvent.length] as const,
      ([deps, stages, checked]) =>
        deps.at(-1) === 'CREATE_COMPLETE' &&
        stages.at(-1) === 'CREATE_COMPLETE' &&
        checked === deps.length &&
        ofB.seen.deployments.at(-1)?.status === 'CREATE_COMPLETE' &&
        ofB.seen.stages.at(-1)?.status === 'CREATE_COMPLETE',
      'the status events to arrive',
    );
    // a slot of this worker was free: each run was claimed as its request queued it, so it starts in progress
    expect(ofA.seen.deployments.map((e) => e.status)).toEqual(['CREATE_IN_PROGRESS', 'CREATE_COMPLETE']);
    expect(ofA.seen.deployments.every((e) => e.id === deploymentId && e.stageId === a.stageId && e.kind === 'DEPLOY')).toBe(true);
    expect(ofA.seen.deployments[0]).toMatchObject({ startedAt: expect.any(String), finishedAt: null });
    expect(ofA.seen.deployments[1]).toMatchObject({ finishedAt: expect.any(String), error: null, durationMs: expect.any(Number) });
    expect(ofA.seen.deployments[0]!.resources.map((r) => r.name)).toEqual(['site']);

    expect(ofA.seen.stages.map((e) => e.status)).toEqual(['CREATE_IN_PROGRESS', 'CREATE_COMPLETE']);
    expect(ofA.seen.stages[0]).toMatchObject({ id: a.stageId, lastDeploymentId: deploymentId, currentDeploymentId: null, lastDeployed: null });
    expect(ofA.seen.stages.at(-1)).toMatchObject({
      currentDeploymentId: deploymentId,
      lastDeployed: expect.any(String),
      resources: [{ name: 'site', status: 'CREATE_COMPLETE', isDeployed: true }],
    });
    const order = ['CREATE_IN_PROGRESS', 'CREATE_COMPLETE'];
    for (const { event, stored } of storedAtEvent) expect(order.indexOf(stored), `stored when ${event} came`).toBeGreaterThanOrEqual(order.indexOf(event));

    // isolation: each room heard of its own project's deployment and environment only
    expect(ofB.seen.deployments.map((e) => e.status)).toEqual(['CREATE_IN_PROGRESS', 'CREATE_COMPLETE']);
    expect(ofB.seen.deployments.every((e) => e.id === ofBDeployment && e.stageId === b.stageId)).toBe(true);
    expect(ofB.seen.stages.every((e) => e.id === b.stageId)).toBe(true);
    expect(ofA.seen.deployments.some((e) => e.id === ofBDeployment)).toBe(false);
    expect(ofA.seen.stages.some((e) => e.id === b.stageId)).toBe(false);
  });

  it('a socket cannot join the room of a project it is not a member of', async () => {
    const stranger = await registerUser(t, 'dep-status-stranger@example.com');
    const sock = ioClient(url, { path: REALTIME_PATH, query: { Authorization: stranger.idToken }, transports: ['websocket'], reconnection: false });
    sockets.push(sock);
    expect(await sock.emitWithAck('project:join', a.projectId)).toEqual({ ok: false, message: 'Project not found' });
  });

  it('tells once the transaction committed, and nothing of writes that rolled back', async () => {
    const { db } = t.app.services.database;
    const store = createDeploymentsStore(db);
    const stagesStore = createStagesStore(db);
    let committed = false;
    let transactions = 0;
    const told: { projectId: string; event: string; payload: any; committed: boolean; order?: string }[] = [];
    const statuses = createStatusWrites({
      transaction: async (fn) => {
        transactions++;
        committed = false;
        const result = await db.transaction((tx) => fn(tx));
        committed = true;
        return result;
      },
      store,
      stages: {
        setDeploymentState: (id, values, tx) => stagesStore.updateById(id, values, tx),
        setRunOutcome: async () => undefined,
      },
      realtime: { toProject: (projectId, event, payload, o) => void told.push({ projectId, event, payload, committed, order: o?.order }) },
    });
    const stored = async () => [
      (await a.api('GET', `/stages/${a.stageId}/deployments/${deploymentId}`)).json().status,
      (await a.api('GET', `/stages/${a.stageId}`)).json().status,
    ];

    await expect(
      statuses.write(async (w) => {
        await w.deployment(deploymentId, { status: 'UPDATE_FAILED' });
        await w.stage(a.stageId, { status: 'UPDATE_FAILED' });
        throw new Error('the run broke before its end was written');
      }),
    ).rejects.toThrow('the run broke');
    expect(told).toEqual([]);
    expect(await stored()).toEqual(['CREATE_COMPLETE', 'CREATE_COMPLETE']);

    await statuses.write(async (w) => {
      await w.deployment(deploymentId, { status: 'UPDATE_COMPLETE' });
      await w.stage(a.stageId, { status: 'UPDATE_COMPLETE' });
    });
    // the run's status goes in the order of its log chunks (its end after its last lines, on PostgreSQL too)
    expect(told.map((e) => [e.projectId, e.event, e.payload.status, e.committed, e.order])).toEqual([
      [a.projectId, 'deployment:update', 'UPDATE_COMPLETE', true, `deployment:${deploymentId}`],
      [a.projectId, 'stage:update', 'UPDATE_COMPLETE', true, undefined],
    ]);
    expect(await stored()).toEqual(['UPDATE_COMPLETE', 'UPDATE_COMPLETE']);

    // a step of one write (a queued run's environment) is written without a transaction, and told once written
    told.length = 0;
    const before = transactions;
    await statuses.write((w) => w.stage(a.stageId, { status: 'UPDATE_IN_PROGRESS' }), { oneWrite: true });
    expect(transactions).toBe(before);
    expect(told.map((e) => [e.event, e.payload.status])).toEqual([['stage:update', 'UPDATE_IN_PROGRESS']]);
    expect(await stored()).toEqual(['UPDATE_COMPLETE', 'UPDATE_IN_PROGRESS']);
  });
});
