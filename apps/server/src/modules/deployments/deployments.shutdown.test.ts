import { describe, it, expect } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { AbortedError } from '../../integrations/executor/local-executor.js';
import { createDeploymentsJobs, INTERRUPTED } from './deployments.jobs.js';
import { createStatusWrites } from './status-events.js';
import type { DeploymentEngine, EngineRun } from './engine.js';

/**
 * A server stop while a deployment runs (issue 15): the engine is told to stop, the runner waits for
 * it, stores every log line, and ends the run failed with the reason, before the stop goes on; a
 * run queued after the stop began is left to its durable job. In memory: the engine, store and
 * environment are fakes, so the order is checked exactly and without timing.
 */
function fixture(o: { engine?: DeploymentEngine; credentials?: Record<string, string> } = {}) {
  const events: string[] = [];
  const logs: { seq: number; text: string }[] = [];
  let row: any = {
    id: 'd1',
    stageId: 's1',
    projectId: 'p1',
    createdAt: new Date(),
    kind: 'DEPLOY',
    status: 'DEPLOY_QUEUED',
    active: true,
    resources: [],
    cancelRequested: false,
  };
  let printed = 0;
  let started!: () => void;
  const running = new Promise<void>((r) => {
    started = r;
  });
  const engine = {
    async deploy(run: EngineRun) {
      // prints until told to stop, as terraform does until its SIGINT
      for (; !run.signal.aborted; printed++) {
        run.log(`apply line ${printed + 1}`);
        if (printed === 2500) started();
        if (printed % 500 === 0) await new Promise((r) => setImmediate(r));
      }
      events.push('engine stopped');
      throw new AbortedError();
    },
    undeploy: async () => undefined,
    deployedResources: async () => [],
  } as unknown as DeploymentEngine;
  const store = {
    get: async () => row,
    claim: async (_id: string, values: object) => {
      row = { ...row, ...values };
      return row;
    },
    update: async (_id: string, values: object) => {
      row = { ...row, ...values };
    },
    setStatus: async (_id: string, values: object) => {
      row = { ...row, ...values };
      if ('finishedAt' in values) events.push(`finished ${row.status}`);
      return undefined; // nothing told: the fake row is not a whole one
    },
    appendLog: async (values: { seq: number; text: string }[]) => {
      await new Promise((r) => setTimeout(r, 5)); // a database write takes a moment
      logs.push(...values.map((v) => ({ seq: v.seq, text: v.text })));
    },
    endRun: async (_id: string, values: object, o: { chunk?: { seq: number; text: string } | null }) => {
      row = { ...row, ...values };
      if (o.chunk) logs.push({ seq: o.chunk.seq, text: o.chunk.text });
      events.push(`finished ${row.status}`);
      return { row: undefined, expired: [] }; // nothing told: the fake row is not a whole one
    },
  };
  const stages = {
    rowById: async () => ({ id: 's1', projectId: 'p1', name: 'staging', iacTool: 'terraform' }),
    resourceRows: async () => [],
    setDeploymentState: async () => undefined,
    setRunOutcome: async () => undefined,
  };
  const log = { warn: () => undefined, error: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger;
  const runner = createDeploymentsJobs({
    store: store as any,
    statuses: createStatusWrites({ transaction: (fn) => fn(undefined), store: store as any, stages: stages as any, realtime: { toProject: () => undefined } }),
    stages: stages as any,
    components: {} as any,
    engineFor: () => o.engine ?? engine,
    credentialsFor: async () => o.credentials ?? {},
    realtime: { toRoom: () => undefined } as any,
    concurrency: 2,
    modulesRoot: '/nonexistent',
    log,
    processName: 'terraform',
  });
  return { runner, events, logs, running, row: () => row, printed: () => printed };
}

describe('stopping the deployments runner', () => {
  it('stops the engine, stores every line it logged, and fails the run as interrupted before returning', async () => {
    const f = fixture();
    const run = f.runner.run('d1');
    await f.running;
    await f.runner.stop(10_000);
    f.events.push('stop returned');
    await run;

    expect(f.events).toEqual(['engine stopped', 'finished CREATE_FAILED', 'stop returned']);
    expect(f.row()).toMatchObject({ status: 'CREATE_FAILED', error: INTERRUPTED, active: false });
    const lines = f.logs.sort((a, b) => a.seq - b.seq).flatMap((c) => c.text.split('\n'));
    expect(lines.filter((l) => l.startsWith('apply line'))).toEqual(Array.from({ length: f.printed() }, (_, i) => `apply line ${i + 1}`));
    expect(lines.at(-1)).toBe(`[gantry] ${INTERRUPTED}`);
  });

  it('starts nothing new once stopping: a queued run stays with its durable job', async () => {
    const f = fixture();
    await f.runner.stop(1_000);
    expect(f.runner.startHere({ id: 's1' } as any)).toBeUndefined();
    await new Promise((r) => setImmediate(r));
    expect(f.row().status).toBe('DEPLOY_QUEUED');
  });
});

describe("a failed run's error", () => {
  it("is masked as its log is: the run's cloud credentials never reach the deployment's answer", async () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const engine = {
      async deploy(run: EngineRun) {
        run.log(`the provider was given ${secret}`);
        throw new Error(`The security token included in the request is invalid: ${secret}`);
      },
      deployedResources: async () => [],
    } as unknown as DeploymentEngine;
    const f = fixture({ engine, credentials: { AWS_SECRET_ACCESS_KEY: secret } });
    await f.runner.run('d1');
    expect(f.row()).toMatchObject({ status: 'CREATE_FAILED', error: 'The security token included in the request is invalid: ****' });
    expect(f.logs.map((c) => c.text).join('\n')).not.toContain(secret);
  });
});
