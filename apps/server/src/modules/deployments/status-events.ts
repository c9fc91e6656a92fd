import type { DeploymentUpdateEvent, PlanUpdateEvent, StageUpdateEvent } from '@gantry/contracts';
import type { Tx } from '../../platform/db.js';
import type { EmitOrder, Realtime } from '../../platform/realtime.js';
import type { StagesApi } from '../stages/stages.port.js';
import type { DeploymentsStore, DeploymentRow, ExpiredPlan, PlanRow } from './deployments.store.js';
import type { LogChunk } from '../../platform/log-sink.js';
import type { deployments } from './deployments.tables.js';

type DeploymentValues = Partial<typeof deployments.$inferInsert>;
type StageValues = Parameters<StagesApi['setDeploymentState']>[1];
type Told = { projectId: string; event: 'deployment:update' | 'stage:update' | 'plan:update'; payload: unknown; order?: EmitOrder };

/**
 * A run's broadcasts, its log chunks (the log's room) and its statuses (the project's room), reach a socket in the
 * order they were emitted: its last lines before its end, which a client may leave the log's room on (on PostgreSQL,
 * broadcasts to different rooms are otherwise sent side by side).
 */
export const inDeploymentOrder = (deploymentId: string): EmitOrder => ({ order: `deployment:${deploymentId}` });

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function deploymentEvent(r: DeploymentRow): DeploymentUpdateEvent {
  return {
    id: r.id,
    deploymentId: r.id,
    stageId: r.stageId,
    kind: r.kind,
    status: r.status,
    timestamp: r.createdAt.toISOString(),
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    durationMs: r.startedAt && r.finishedAt ? r.finishedAt.getTime() - r.startedAt.getTime() : null,
    error: r.error,
    planId: r.planId,
    resourceName: r.resourceName,
    resources: r.resources,
    logs: r.logs,
    startedBy: r.startedBy,
  };
}

type WrittenStage = NonNullable<Awaited<ReturnType<StagesApi['setDeploymentState']>>>;
const stageEvent = (s: WrittenStage): StageUpdateEvent => ({
  id: s.id,
  status: s.status,
  lastDeployed: iso(s.lastDeployed),
  lastDeploymentId: s.lastDeploymentId,
  currentDeploymentId: s.currentDeploymentId,
  dateUpdated: s.updatedAt.toISOString(),
});

const planEvent = (p: Pick<PlanRow, 'stageId' | 'id' | 'status' | 'error'>): PlanUpdateEvent => ({
  stageId: p.stageId,
  planId: p.id,
  status: p.status,
  error: p.error,
});

/** The status writes of one transaction; what they wrote is told once it commits. */
export interface StatusWriter {
  /** A deployment's status (and what goes with it: times, error, logs); the row as written. */
  deployment(id: string, values: DeploymentValues): Promise<DeploymentRow | undefined>;
  /** Takes a queued deployment for this worker (compare-and-set); undefined when another took it. */
  claim(id: string, values: DeploymentValues): Promise<DeploymentRow | undefined>;
  /** A deployment row written outside this transaction (the queued insert, which must commit on its own). */
  written(row: DeploymentRow): void;
  /** The environment's status and deployment pointers. */
  stage(stageId: string, values: StageValues): Promise<void>;
  /**
   * Which resources have cloud objects after a run, with their statuses (from their status before), and the
   * environment's own values written with them (told together as the environment's row).
   */
  resources(
    stageId: string,
    deployed: Set<string>,
    statusOf: (name: string, isDeployed: boolean, previous: string) => string,
    stage?: StageValues,
    before?: Parameters<StagesApi['setRunOutcome']>[1]['before'],
  ): Promise<void>;
  /** A plan's status. */
  plan(id: string, values: Partial<PlanRow>): Promise<void>;
  /**
   * A run's end in one statement: its status write, the plans it made stale EXPIRED with the state it left (`sealed`), and
   * its log's last chunk; answers the plans expired (their files go after the commit).
   */
  ended(id: string, values: DeploymentValues & { finishedAt: Date }, o: { stageId: string; sealed?: string; chunk?: LogChunk | null }): Promise<ExpiredPlan[]>;
}

/**
 * Every status write of deployments, plans and their environments goes through here: the writes of one
 * step are one transaction, and the project room hears of them (`deployment:update`, `stage:update`,
 * `plan:update`) only once it has committed — never of a write that rolled back — so the web shows a
 * run's status as its log streams, polls being only the fallback.
 */
export function createStatusWrites(deps: {
  /** Runs `fn` in one transaction (db.transaction); tests without a database hand in a pass-through. */
  transaction: <T>(fn: (tx: Tx | undefined) => Promise<T>) => Promise<T>;
  store: Pick<DeploymentsStore, 'setStatus' | 'claim' | 'setPlanStatus' | 'endRun'>;
  stages: Pick<StagesApi, 'setDeploymentState' | 'setRunOutcome'>;
  realtime: Pick<Realtime, 'toProject'>;
}) {
  const { store, stages } = deps;

  function writerOn(tx: Tx | undefined, told: Told[]): StatusWriter {
    const tell = (projectId: string, event: Told['event'], payload: unknown, order?: EmitOrder) => void told.push({ projectId, event, payload, order });
    const deploymentWritten = (row: DeploymentRow | undefined) => {
      if (row) tell(row.projectId, 'deployment:update', deploymentEvent(row), inDeploymentOrder(row.id));
      return row;
    };
    // one stage:update per environment and transaction: its last row, with the resources if written
    const stageTold = new Map<string, StageUpdateEvent>();
    const stageWritten = (projectId: string, event: StageUpdateEvent) => {
      const earlier = stageTold.get(event.id);
      if (earlier) Object.assign(earlier, event);
      else {
        stageTold.set(event.id, event);
        tell(projectId, 'stage:update', event);
      }
    };
    return {
      deployment: async (id, values) => deploymentWritten(await store.setStatus(id, values, tx)),
      claim: async (id, values) => deploymentWritten(await store.claim(id, values, tx)),
      written: (row) => void deploymentWritten(row),
      async stage(stageId, values) {
        const s = await stages.setDeploymentState(stageId, values, tx);
        if (s) stageWritten(s.projectId, stageEvent(s));
      },
      async resources(stageId, deployed, statusOf, stage = {}, before) {
        const s = await stages.setRunOutcome(stageId, { deployed, statusOf, before, values: stage }, tx);
        if (s) stageWritten(s.projectId, { ...stageEvent(s), resources: s.resources });
      },
      async plan(id, values) {
        const p = await store.setPlanStatus(id, values, tx);
        if (p) tell(p.projectId, 'plan:update', planEvent(p));
      },
      async ended(id, values, o) {
        const { row, expired } = await store.endRun(id, values, o, tx);
        for (const p of expired) tell(p.projectId, 'plan:update', planEvent(p));
        deploymentWritten(row);
        return expired;
      },
    };
  }

  return {
    /**
     * Runs the status writes of one step in a transaction, then tells the project rooms what they wrote.
     * `oneWrite`: the step makes a single write, committed on its own without a transaction around it
     * (its begin and commit are two round trips more on the way to a run's start). `committed`: told once it
     * committed, before the rooms are (a run's last log chunk is published ahead of its end).
     */
    async write<T>(fn: (w: StatusWriter) => Promise<T>, o: { oneWrite?: boolean; committed?: () => void } = {}): Promise<T> {
      const told: Told[] = [];
      const result = o.oneWrite ? await fn(writerOn(undefined, told)) : await deps.transaction((tx) => fn(writerOn(tx, told)));
      o.committed?.();
      for (const t of told) deps.realtime.toProject(t.projectId, t.event, t.payload, t.order);
      return result;
    },
  };
}
export type StatusWrites = ReturnType<typeof createStatusWrites>;
