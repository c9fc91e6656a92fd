import { describe, it, expect } from 'vitest';
import { createDeploymentsService, DEPLOYMENT_QUEUE, type LocalStart, type QueuedDeployment } from './deployments.service.js';
import { createStatusWrites } from './status-events.js';

/**
 * How a deployment is queued (in memory: store, environment and jobs are fakes): with a free slot of this
 * process its row is written claimed and it starts at once, with what the request read, and no durable job;
 * without one it is queued for any worker; a refused one gives its slot back.
 */
function fixture(o: { slot: boolean; active?: boolean; planCreating?: boolean; overBudget?: boolean; noResources?: boolean; status?: string }) {
  const inserted: Record<string, unknown>[] = [];
  const jobs: { queue: string; data: unknown }[] = [];
  const started: QueuedDeployment[] = [];
  const slots = { taken: 0, released: 0 };
  const reads = { resources: 0 };
  const stateRead: boolean[] = [];
  // the order in which the request reads and reserves
  const order: string[] = [];
  const stage = {
    id: 's1',
    projectId: 'p1',
    name: 'staging',
    status: o.status ?? 'NOT_DEPLOYED',
    iacTool: 'terraform',
    cloudProvider: 'aws',
    awsAccountId: '123456789012',
  };
  const resources = o.noResources
    ? []
    : [{ name: 'site', componentId: 'c1', componentVersion: 'latest', isDeployed: false, status: 'NOT_DEPLOYED', configurations: [] }];
  const store = {
    usedMs: async () => (order.push('minutes read'), 0),
    // a plan created while the request ran: seen by its check after the insert only (with the state, for a run here)
    afterInsert: async (_stageId: string, read: { state: boolean }) => {
      stateRead.push(read.state);
      return { planCreating: !!(o.planCreating && inserted.length), sealed: read.state ? 'sealed state' : null };
    },
    insert: async (values: Record<string, unknown>) => {
      if (o.active) return null;
      inserted.push(values);
      return { id: 'd1', createdAt: new Date(), startedAt: null, finishedAt: null, ...values };
    },
    remove: async () => undefined,
  };
  const startHere = (): LocalStart | undefined => {
    order.push('slot reserved');
    if (!o.slot) return undefined;
    slots.taken++;
    return {
      claim: () => ({ status: 'CREATE_IN_PROGRESS', startedAt: new Date(0), heartbeatAt: new Date(0), workerId: 'host:1:w' }),
      start: (queued) => {
        order.push('run started');
        started.push(queued);
      },
      release: () => void slots.released++,
    };
  };
  const service = createDeploymentsService({
    store: store as any,
    statuses: createStatusWrites({
      transaction: (fn) => fn(undefined),
      store: {} as any,
      stages: {
        setDeploymentState: async () => {
          await new Promise((r) => setTimeout(r, 5)); // a database write takes a moment
          order.push('environment shown');
        },
      } as any,
      realtime: { toProject: () => undefined },
    }),
    stages: {
      get: async () => (order.push('environment read'), stage),
      // as the store answers it: a query builder, which runs its query once per then
      resourceRows: () => ({ then: (ok: any, fail: any) => (reads.resources++, order.push('resources read'), Promise.resolve(resources).then(ok, fail)) }),
    } as any,
    billing: {
      assertWithinLimit: async (_p: string, _l: string, used: Promise<unknown>) => {
        await used;
        if (o.overBudget) throw Object.assign(new Error('Build minutes used up'), { status: 402 });
      },
    } as any,
    jobs: { send: async (queue: string, data: unknown) => void jobs.push({ queue, data }) } as any,
    components: { resolve: async () => ({ versionId: 'v1', version: '1.0.0', componentName: 'Site' }) },
    engineFor: () => ({}) as any,
    startHere,
    recover: async () => undefined,
  });
  return {
    deploy: () => service.deploy('p1', 's1', 'u1'),
    undeploy: () => service.undeploy('p1', 's1', 'u1'),
    inserted,
    jobs,
    started,
    slots,
    reads,
    order,
    stateRead,
  };
}

describe('queueing a deployment', () => {
  it('with a free slot here: written claimed by this worker and started with what the request read, no durable job', async () => {
    const f = fixture({ slot: true });
    expect(await f.deploy()).toEqual({ deploymentId: 'd1', status: 'CREATE_IN_PROGRESS' });
    expect(f.inserted).toEqual([
      expect.objectContaining({ kind: 'DEPLOY', status: 'CREATE_IN_PROGRESS', workerId: 'host:1:w', startedAt: new Date(0), heartbeatAt: new Date(0) }),
    ]);
    expect(f.started).toEqual([
      expect.objectContaining({ row: expect.objectContaining({ id: 'd1', status: 'CREATE_IN_PROGRESS' }), stage: expect.objectContaining({ id: 's1' }) }),
    ]);
    expect(f.started[0]!.resources.map((r) => r.name)).toEqual(['site']);
    expect(f.jobs).toEqual([]);
    expect(f.reads.resources).toBe(1);
    // its state read with the plan check after the insert (its terraform then starts without reading it); it starts while
    // the environment is written as running, and the answer waits for that write, as the run's end does (`shown`)
    expect([f.stateRead, f.started[0]!.sealedState]).toEqual([[true], 'sealed state']);
    expect(f.order.slice(-2)).toEqual(['run started', 'environment shown']);
    expect(f.started[0]!.shown).toBeInstanceOf(Promise);
  });

  it('reserves its slot as soon as the environment is read, its engine warming up while the other checks read', async () => {
    const f = fixture({ slot: true });
    await f.deploy();
    expect(f.order.slice(0, 2)).toEqual(['environment read', 'slot reserved']);
    expect(f.order.slice(2, 4).sort()).toEqual(['minutes read', 'resources read']);
  });

  it('a check that fails after the slot was reserved gives it back, and nothing starts', async () => {
    for (const failing of [
      { o: { noResources: true }, status: 400 },
      { o: { overBudget: true }, status: 402 },
      { o: { undeploy: true }, status: 409 }, // the environment is not deployed
    ]) {
      const f = fixture({ slot: true, ...failing.o });
      await expect('undeploy' in failing.o ? f.undeploy() : f.deploy()).rejects.toMatchObject({ status: failing.status });
      expect(f.slots).toEqual({ taken: 1, released: 1 });
      expect(f.started).toEqual([]);
      expect(f.inserted).toEqual([]);
    }
  });

  it('without one: queued for any worker through its durable job', async () => {
    const f = fixture({ slot: false });
    expect(await f.deploy()).toEqual({ deploymentId: 'd1', status: 'DEPLOY_QUEUED' });
    expect(f.inserted).toEqual([expect.objectContaining({ status: 'DEPLOY_QUEUED' })]);
    expect(f.inserted[0]).not.toHaveProperty('workerId');
    expect(f.jobs).toEqual([{ queue: DEPLOYMENT_QUEUE, data: { deploymentId: 'd1' } }]);
    expect(f.stateRead).toEqual([false]); // the worker that claims it reads the state itself
    expect(f.started).toEqual([]);
  });

  it('refused (another run of the environment, or a plan made meanwhile): the slot is given back and nothing starts', async () => {
    for (const refused of [{ active: true }, { planCreating: true }]) {
      const f = fixture({ slot: true, ...refused });
      await expect(f.deploy()).rejects.toMatchObject({ status: 409 });
      expect(f.slots).toEqual({ taken: 1, released: 1 });
      expect(f.started).toEqual([]);
      expect(f.jobs).toEqual([]);
    }
  });
});
