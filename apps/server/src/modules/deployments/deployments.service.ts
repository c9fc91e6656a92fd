import {
  type TimelineEvent,
  deployBlockedReason,
  missingTargetAccount,
  deploymentMinutes,
  RESOURCE_LATEST,
  type Deployment,
  type Plan,
  type DeploymentTime,
  type ResourceOutputs,
  type StackEvent,
  TIMELINE_SOURCE_LIMIT,
} from '@gantry/contracts';
import { Conflict, NotFound, Validation } from '../../platform/errors.js';
import type { Jobs } from '../../platform/jobs.js';
import type { BillingService } from '../billing/billing.port.js';
import type { StagesApi, StageRow, StageResourceRow } from '../stages/stages.port.js';
import type { DeploymentsStore, DeploymentRow, PlanRow } from './deployments.store.js';
import type { DeployedResource } from './deployments.tables.js';
import type { DeploymentEngine } from './engine.js';
import { deploymentEvent, type StatusWrites } from './status-events.js';

export const DEPLOYMENT_QUEUE = 'deployments';
export const PLAN_QUEUE = 'deployment-plans';
const PLAN_RUNNING = 'A plan of this environment is being created; wait for it to finish';
/**
 * A plan this process starts at once has its durable job held back this long: the job is then only
 * the record that a crash before the local claim needs, and no worker polls for it in the meantime.
 */
export const LOCAL_START_JOB_DELAY_S = 10;

/** A deployment as its request queued it: the row, and the environment and resources the request read. */
export interface QueuedDeployment {
  row: DeploymentRow;
  stage: StageRow;
  resources: StageResourceRow[];
  /** The environment's sealed state, read with the checks after the row was inserted (run here: Terraform). */
  sealedState?: string | null;
  /** The environment shown queued or running (written while the run starts): the run's end is written after it. */
  shown?: Promise<unknown>;
}

/** A slot to run a deployment in this process from its request on (the jobs' startHere), its engine warming up meanwhile. */
export interface LocalStart {
  /** The values the row is inserted with: claimed by this worker, running. */
  claim(kind: DeploymentRow['kind'], anyDeployed: boolean): Pick<DeploymentRow, 'status' | 'startedAt' | 'heartbeatAt' | 'workerId'>;
  /** Runs the queued deployment with what its request read. */
  start(queued: QueuedDeployment): void;
  /** Gives the slot back and ends what warmed up (it was not queued after all); a no-op once started. */
  release(): void;
}

/** What deployments need of components: a resource's version resolved (LATEST → the newest). */
export interface ComponentVersions {
  resolve(projectId: string, componentId: string, version: string): Promise<{ versionId: string; version: string | null; componentName: string }>;
}

export const toDeployment = (r: DeploymentRow, stage: Pick<StageRow, 'lastDeploymentId' | 'currentDeploymentId'>): Deployment => ({
  ...deploymentEvent(r),
  lastDeploymentId: stage.lastDeploymentId,
  currentDeploymentId: stage.currentDeploymentId,
});

export function toPlan(p: PlanRow): Plan {
  return {
    planId: p.id,
    stageId: p.stageId,
    status: p.status,
    error: p.error,
    createdAt: p.createdAt.toISOString(),
    summary: p.summary ?? null,
    changes: p.changes,
  };
}

/**
 * Deployments of environments (spec §4 "Environment actions"): the rules for starting, cancelling
 * and reading them. The runs themselves are jobs (deployments.jobs.ts).
 */
export function createDeploymentsService(deps: {
  store: DeploymentsStore;
  /** Every status write of a deployment and its environment (told to the project room once committed). */
  statuses: StatusWrites;
  stages: StagesApi;
  billing: BillingService;
  jobs: Jobs;
  components: ComponentVersions;
  engineFor: (stage: StageRow) => DeploymentEngine;
  /**
   * A deployment queued while a slot of this process is free is claimed by it as it is inserted and runs here at
   * once (no durable job: a crash before it ran leaves a run whose worker stopped beating, which the recovery fails).
   */
  startHere?: (stage: StageRow) => LocalStart | undefined;
  /** Starts a just-created plan here when a slot is free (its durable job stays the source of truth); answers whether it does. */
  onPlanQueued?: (planId: string) => boolean;
  /** The interrupted-deployment recovery (deployments.jobs'). */
  recover: () => Promise<void>;
  /** Aborts a deployment this process runs (a user's cancel; other workers see the row's flag). */
  abortLocal?: (deploymentId: string) => void;
}) {
  const { store, stages, billing, jobs } = deps;

  /** The resources' versions as they are now (LATEST resolved), each component version looked up once. */
  async function snapshot(projectId: string, rows: StageResourceRow[]): Promise<DeployedResource[]> {
    const resolved = new Map<string, ReturnType<ComponentVersions['resolve']>>();
    return Promise.all(
      rows.map(async (r) => {
        const version = r.componentVersion === RESOURCE_LATEST ? 'latest' : r.componentVersion;
        const key = `${r.componentId}:${version}`;
        if (!resolved.has(key)) resolved.set(key, deps.components.resolve(projectId, r.componentId, version));
        const v = await resolved.get(key)!;
        return { name: r.name, component: { id: r.componentId, name: v.componentName }, componentVersion: v.versionId, version: v.version };
      }),
    );
  }

  async function monthMinutes(projectId: string) {
    const since = new Date();
    since.setUTCDate(1);
    since.setUTCHours(0, 0, 0, 0);
    const rows = await store.timeSince(projectId, since);
    return { rows, ms: rows.reduce((a, r) => a + Number(r.ms), 0) };
  }

  /** Settles a promise into its value or its error, so one started early fails only where it is awaited. */
  const settled = <T>(p: Promise<T>) =>
    p.then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  const valueOf = <T>(s: { value: T } | { error: unknown }): T => {
    if ('error' in s) throw s.error;
    return s.value;
  };

  /** The environment, once it is one Gantry can run (its engine known, its cloud account chosen). */
  async function runnable(projectId: string, stageId: string) {
    const stage = await stages.get(projectId, stageId);
    deps.engineFor(stage); // an engine Gantry cannot run answers 400 before anything is queued
    const missing = missingTargetAccount(stage);
    if (missing.length)
      throw new Validation('Please select the cloud account of this environment first', Object.fromEntries(missing.map((m) => [m, ['Required to deploy']])));
    return stage;
  }

  /**
   * The checks every deploy, plan and undeploy makes before anything is queued, once the environment is runnable;
   * answers its resources and their versions as they are now (`snapshot`, read meanwhile: await it where it is
   * needed). The reads go side by side; their checks fail in the order they are listed here.
   */
  async function checked(stage: StageRow, what: 'deploy' | 'plan' | 'undeploy') {
    const { projectId, id: stageId } = stage;
    // a promise of the rows (a query builder would run its query again for each then)
    const reading = Promise.resolve(stages.resourceRows(stageId));
    const snapshotted = settled(reading.then((rows) => snapshot(projectId, rows)));
    const [resources, budget, planCreating] = await Promise.all([
      reading,
      // Terraform runs on Gantry's workers, so its minutes are limited by the plan's build minutes. They are
      // counted on their own (this month's deployment time, spec "Deployment time") against that limit,
      // not added to the builds' minutes: a project's builds and deployments each get the plan's budget.
      // CloudFormation runs in AWS and costs no worker time.
      stage.iacTool === 'terraform' && what !== 'undeploy'
        ? settled(billing.assertWithinLimit(projectId, 'buildMinutes', store.usedMs(projectId).then(deploymentMinutes), 0))
        : { value: undefined },
      // a run queued checks it once inserted (queue): whichever of a plan and a run came second backs out
      what === 'plan' ? store.creatingPlan(stageId) : undefined,
    ]);
    if (what !== 'undeploy') {
      const blocked = deployBlockedReason(stage.status);
      if (blocked) throw new Conflict(blocked.message);
      if (!resources.length) throw new Validation('Add a resource to the environment before deploying it');
    }
    valueOf(budget);
    if (planCreating) throw new Conflict(PLAN_RUNNING);
    return { stage, resources, snapshot: async () => valueOf(await snapshotted) };
  }

  /** Queues the run the checks passed; `local`: the slot reserved for it here (the caller gives it back unless the run started). */
  async function queue(
    { stage, resources, local }: Pick<Checked, 'stage' | 'resources' | 'local'>,
    userId: string | null,
    kind: DeploymentRow['kind'],
    extra: { planId?: string; resourceName?: string; resources: DeployedResource[] },
  ) {
    const row = await store.insert({
      stageId: stage.id,
      projectId: stage.projectId,
      kind,
      status: kind === 'UNDEPLOY' || kind === 'UNDEPLOY_RESOURCE' ? 'DELETE_IN_PROGRESS' : 'DEPLOY_QUEUED',
      ...local?.claim(
        kind,
        resources.some((r) => r.isDeployed),
      ),
      startedBy: userId,
      planId: extra.planId ?? null,
      resourceName: extra.resourceName ?? null,
      resources: extra.resources,
    });
    if (!row) throw new Conflict('A deployment of this environment is already running');
    // a plan shares the environment's work dir and state: whichever of the two came second backs out (a Terraform run
    // here reads the state in the same statement: its engine then starts without reading it)
    const after = await store.afterInsert(stage.id, { state: !!local && stage.iacTool === 'terraform' });
    if (after.planCreating) {
      await store.remove(row.id);
      throw new Conflict(PLAN_RUNNING);
    }
    const stageStatus = kind === 'UNDEPLOY_RESOURCE' ? stage.status : row.status;
    const shown = deps.statuses.write(
      async (w) => {
        w.written(row);
        await w.stage(stage.id, { status: stageStatus, lastDeploymentId: row.id });
      },
      { oneWrite: true },
    );
    // claimed here: it runs now with what was read here, while the environment is shown running (its end waits for
    // that write); otherwise the durable job is there for any worker
    if (local) local.start({ row, stage, resources, sealedState: after.sealed, shown: shown.catch(() => undefined) });
    await shown;
    if (!local) await jobs.send(DEPLOYMENT_QUEUE, { deploymentId: row.id });
    return { deploymentId: row.id, status: stageStatus };
  }

  async function deploymentOf(projectId: string, stageId: string, deploymentId: string) {
    await stages.get(projectId, stageId);
    const row = await store.ofStage(stageId, deploymentId);
    if (!row) throw new NotFound('Deployment not found');
    return row;
  }

  /** `then` with the slot reserved for its run here; given back after it unless the run started with it (release is a no-op then). */
  async function holding<T>(local: LocalStart | undefined, then: () => Promise<T>) {
    try {
      return await then();
    } finally {
      local?.release();
    }
  }
  type Checked = Awaited<ReturnType<typeof checked>> & { local: LocalStart | undefined };
  /**
   * The checks, then `then` with what they answered. A deploy or undeploy reserves its slot here (`local`) as soon
   * as the environment is read, so that its engine warms up (terraform's box opens) while the other reads and
   * checks go on; it is given back if anything throws before the run started.
   */
  async function whenReady<T>(projectId: string, stageId: string, what: 'deploy' | 'undeploy', then: (c: Checked) => Promise<T>) {
    const stage = await runnable(projectId, stageId);
    const local = deps.startHere?.(stage);
    return holding(local, async () => then({ ...(await checked(stage, what)), local }));
  }

  return {
    /** Quick Deploy: plan + apply in one job. */
    deploy: (projectId: string, stageId: string, userId: string | null) =>
      whenReady(projectId, stageId, 'deploy', async (c) => queue(c, userId, 'DEPLOY', { resources: await c.snapshot() })),

    undeploy: (projectId: string, stageId: string, userId: string) =>
      whenReady(projectId, stageId, 'undeploy', async (c) => {
        if (c.stage.status === 'NOT_DEPLOYED' || c.stage.status === 'DELETE_COMPLETE') throw new Conflict('The environment is not deployed');
        return queue(c, userId, 'UNDEPLOY', { resources: await c.snapshot() });
      }),

    undeployResource: (projectId: string, stageId: string, resourceName: string, userId: string) =>
      whenReady(projectId, stageId, 'undeploy', async (c) => {
        if (c.stage.iacTool !== 'terraform') throw new Conflict('Only Terraform resources can be undeployed one by one');
        const resource = c.resources.find((r) => r.name === resourceName);
        if (!resource) throw new NotFound('Resource not found');
        if (!resource.isDeployed) throw new Conflict('The resource is not deployed');
        return queue(c, userId, 'UNDEPLOY_RESOURCE', { resourceName, resources: await c.snapshot() });
      }),

    async cancel(projectId: string, stageId: string) {
      await stages.get(projectId, stageId);
      const active = await store.active(stageId);
      if (!active) throw new Conflict('No deployment of this environment is running');
      await store.update(active.id, { cancelRequested: true });
      deps.abortLocal?.(active.id);
    },

    async createPlan(projectId: string, stageId: string, userId: string) {
      const ready = await checked(await runnable(projectId, stageId), 'plan');
      if (ready.stage.iacTool !== 'terraform') throw new Validation('Plans are made for Terraform environments');
      if (await store.active(stageId)) throw new Conflict('A deployment of this environment is already running');
      const plan = await store.insertPlan({ stageId, projectId, createdBy: userId, resources: await ready.snapshot() });
      if (await store.active(stageId)) {
        await store.removePlan(plan.id);
        throw new Conflict('A deployment of this environment is already running');
      }
      const startedHere = deps.onPlanQueued?.(plan.id) ?? false;
      await jobs.send(PLAN_QUEUE, { planId: plan.id }, startedHere ? { startAfter: LOCAL_START_JOB_DELAY_S } : undefined);
      return { planId: plan.id };
    },

    async plan(projectId: string, stageId: string, planId: string): Promise<Plan> {
      await stages.get(projectId, stageId);
      const plan = await store.plan(stageId, planId);
      if (!plan) throw new NotFound('Plan not found');
      return toPlan(plan);
    },

    /** Applies exactly a stored plan (terraform refuses it if the state moved on since). */
    async deployPlan(projectId: string, stageId: string, planId: string, userId: string) {
      // the environment is the project's first: another project's plan must not answer with its status
      const stage = await stages.get(projectId, stageId);
      const plan = await store.plan(stageId, planId);
      if (!plan) throw new NotFound('Plan not found');
      if (plan.status !== 'READY')
        throw new Conflict(plan.status === 'CREATING' ? 'The plan is still being created' : `The plan cannot be applied: it is ${plan.status.toLowerCase()}`);
      if (missingTargetAccount(stage).length) throw new Validation('Please select the cloud account of this environment first');
      const local = deps.startHere?.(stage);
      return holding(local, async () =>
        queue({ stage, resources: await stages.resourceRows(stageId), local }, userId, 'PLAN_APPLY', { planId, resources: plan.resources }),
      );
    },

    async history(projectId: string, stageId: string, q: { lastDeploymentId?: string; limit: number }) {
      const stage = await stages.get(projectId, stageId);
      const insights = Boolean((await billing.limitations(projectId)).deploymentInsights);
      const rows = await store.history(stageId, insights ? q.limit : 1, insights ? q.lastDeploymentId : undefined);
      return { deployments: rows.map((r) => toDeployment(r, stage)), limitedByPlan: !insights };
    },

    async one(projectId: string, stageId: string, deploymentId: string): Promise<Deployment> {
      const row = await deploymentOf(projectId, stageId, deploymentId);
      return toDeployment(row, await stages.get(projectId, stageId));
    },

    async logs(projectId: string, stageId: string, deploymentId: string) {
      const row = await deploymentOf(projectId, stageId, deploymentId);
      return { chunks: (await store.logs(row.id)).map((c) => ({ deploymentId: row.id, ...c })) };
    },

    deploymentOf,
    /** Runs the interrupted-deployment recovery now (the jobs also run it on a timer). */
    recoverNow: () => deps.recover(),

    async events(projectId: string, stageId: string): Promise<StackEvent[]> {
      const stage = await stages.get(projectId, stageId);
      const engine = deps.engineFor(stage);
      return engine.events ? engine.events(stage) : [];
    },

    async continueRollback(projectId: string, stageId: string) {
      const stage = await stages.get(projectId, stageId);
      const engine = deps.engineFor(stage);
      if (stage.iacTool !== 'cloudformation' || !engine.continueRollback) throw new Conflict('Only CloudFormation stacks can continue a rollback');
      if (stage.status !== 'UPDATE_ROLLBACK_FAILED')
        throw new Conflict(`The stack is in ${stage.status} status; continue rollback is for UPDATE_ROLLBACK_FAILED`);
      await engine.continueRollback(stage);
    },

    async outputs(projectId: string, stageId: string, resourceName: string): Promise<ResourceOutputs> {
      const stage = await stages.get(projectId, stageId);
      const resource = (await stages.resourceRows(stageId)).find((r) => r.name === resourceName);
      if (!resource) throw new NotFound('Resource not found');
      if (!resource.isDeployed) return { outputs: [] };
      const all = await deps.engineFor(stage).outputs(stage);
      return { outputs: all[resourceName] ?? [] };
    },

    async deploymentTime(projectId: string): Promise<DeploymentTime> {
      const { rows, ms } = await monthMinutes(projectId);
      const names = new Map((await stages.list(projectId)).map((s) => [s.id, s.name]));
      return {
        deploymentTime: Math.round(ms),
        stages: rows
          .filter((r) => names.has(r.stageId))
          .map((r) => ({ stageId: r.stageId, name: names.get(r.stageId)!, deploymentTime: Math.round(Number(r.ms)) })),
      };
    },

    /**
     * The project's latest deployments for the overview's timeline (`type` build answers none), with
     * those of deleted environments, which the overview says are no longer available.
     */
    async timeline(projectId: string, type?: string): Promise<TimelineEvent[]> {
      if (type && type.toLowerCase() !== 'deployment') return [];
      const [rows, removed, list] = await Promise.all([
        store.recentOfProject(projectId, TIMELINE_SOURCE_LIMIT),
        store.removedStageTimeline(projectId, TIMELINE_SOURCE_LIMIT),
        stages.list(projectId),
      ]);
      const names = new Map(list.map((s) => [s.id, s.name]));
      const live = rows.map((d) => ({
        deploymentId: d.id,
        stageId: d.stageId,
        stageName: names.get(d.stageId) ?? d.stageId,
        status: d.status,
        at: d.finishedAt ?? d.startedAt ?? d.createdAt,
      }));
      const liveIds = new Set(live.map((d) => d.deploymentId));
      return [...live, ...removed.filter((d) => !liveIds.has(d.deploymentId))]
        .sort((a, b) => b.at.getTime() - a.at.getTime())
        .slice(0, TIMELINE_SOURCE_LIMIT)
        .map((d) => ({
          type: 'deployment',
          projectId,
          status: d.status,
          timestamp: d.at.toISOString(),
          deploymentId: d.deploymentId,
          stageId: d.stageId,
          stageName: d.stageName,
          entityType: 'STAGE',
        }));
    },

    /** Called before an environment is deleted: its deployments stay on the project's timeline. */
    keepTimelineOfRemovedStage: (stage: { projectId: string; stageId: string; stageName: string }) =>
      store.keepTimelineOfRemovedStage(stage, TIMELINE_SOURCE_LIMIT),
  };
}
export type DeploymentsService = ReturnType<typeof createDeploymentsService>;
