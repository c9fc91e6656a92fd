import type { QueryClient } from '@tanstack/react-query';
import type { Deployment, DeploymentHistory, DeploymentUpdateEvent, PlanUpdateEvent, Resource, Stage, StageUpdateEvent } from '@gantry/contracts';
import { further } from '../../../api/status-progress';
import { deploymentTimeKeys, stageKeys } from './keys';

type StageList = { stages: Stage[] };
type Resources = { resources: Resource[] };

/** The deployment as the event tells it, unless what the cache holds is further along (a late event). */
const withDeployment = <D extends Pick<Deployment, 'id' | 'status'>>(held: D, e: DeploymentUpdateEvent): D =>
  held.id !== e.id || further(held.status, e.status) ? held : { ...held, ...e };

/** Whether the environment as `a` shows it is newer than as `b` (its row's write time; the status within one run). */
const stageNewer = (a: Stage, b: Pick<Stage, 'dateUpdated' | 'lastDeploymentId' | 'status'>) =>
  a.dateUpdated > b.dateUpdated || (a.dateUpdated === b.dateUpdated && a.lastDeploymentId === b.lastDeploymentId && further(a.status, b.status));

const withStage = (held: Stage, e: StageUpdateEvent): Stage => {
  if (held.id !== e.id || stageNewer(held, e)) return held;
  const { resources: _resources, ...fields } = e;
  return { ...held, ...fields };
};

/**
 * A `deployment:update` (deployments status-events: the row once written) put into the deployment's
 * details and the environment's history at once; a deployment the history does not list yet comes first.
 * A run's end also has the month's deployment time and the environment's stack events read again.
 */
export function applyDeploymentUpdate(qc: QueryClient, projectId: string, e: DeploymentUpdateEvent) {
  qc.setQueryData<Deployment>(stageKeys.deployment(projectId, e.stageId, e.id), (held) => (held ? withDeployment(held, e) : held));
  qc.setQueryData<DeploymentHistory>(stageKeys.deployments(projectId, e.stageId), (history) => {
    if (!history) return history;
    if (history.deployments.some((d) => d.id === e.id)) return { ...history, deployments: history.deployments.map((d) => withDeployment(d, e)) };
    const latest = history.deployments[0];
    const added: Deployment = { ...e, lastDeploymentId: e.id, currentDeploymentId: latest?.currentDeploymentId ?? null };
    // without the plan's insights the history shows the latest deployment only
    return { ...history, deployments: history.limitedByPlan ? [added] : [added, ...history.deployments] };
  });
  // a run's end adds its time to the month's deployment minutes (insights panel, environment header)
  if (e.finishedAt) void qc.invalidateQueries({ queryKey: deploymentTimeKeys.project(projectId) });
  // and its last stack events (the stack's *_COMPLETE, a failure's cause): the events' poll stops at the end, and its
  // last read could be seconds before it
  if (e.finishedAt) void qc.invalidateQueries({ queryKey: stageKeys.events(projectId, e.stageId), exact: true });
}

/**
 * A `stage:update` (the environment a deployment moved on, once written) put into the environment, the
 * environments list (also the overview's) and, when the run wrote them, the resources' statuses.
 */
export function applyStageUpdate(qc: QueryClient, projectId: string, e: StageUpdateEvent) {
  qc.setQueryData<Stage>(stageKeys.detail(projectId, e.id), (held) => (held ? withStage(held, e) : held));
  qc.setQueryData<StageList>(stageKeys.list(projectId), (list) => (list ? { ...list, stages: list.stages.map((s) => withStage(s, e)) } : list));
  const { resources } = e;
  if (!resources) return;
  const key = stageKeys.resources(projectId, e.id);
  // a resources poll under way carries the state before this run's end: it is dropped, then the end written
  void qc.cancelQueries({ queryKey: key, exact: true }).then(() =>
    qc.setQueryData<Resources>(key, (held) =>
      held
        ? {
            ...held,
            resources: held.resources.map((r) => {
              const told = resources.find((t) => t.name === r.name);
              return told ? { ...r, status: told.status, isDeployed: told.isDeployed } : r;
            }),
          }
        : held,
    ),
  );
}

/** A `plan:update`: the plan is read again (a ready plan brings its changes). */
export function applyPlanUpdate(qc: QueryClient, projectId: string, e: PlanUpdateEvent) {
  void qc.invalidateQueries({ queryKey: stageKeys.plan(projectId, e.stageId, e.planId), exact: true });
}

/**
 * A log chunk of a deployment the cache still shows queued: it runs (its log streams), even if its own
 * event is still on its way — and so does its environment.
 */
export function applyDeploymentStreaming(qc: QueryClient, projectId: string, chunk: { deploymentId: string }) {
  for (const [, d] of qc.getQueriesData<Deployment>({ queryKey: [...stageKeys.all, projectId] })) {
    if (!d || typeof d !== 'object' || !('deploymentId' in d) || d.id !== chunk.deploymentId || !further('CREATE_IN_PROGRESS', d.status)) continue;
    const stage = qc.getQueryData<Stage>(stageKeys.detail(projectId, d.stageId));
    const anyDeployed = qc.getQueryData<Resources>(stageKeys.resources(projectId, d.stageId))?.resources.some((r) => r.isDeployed);
    const status = d.kind === 'UNDEPLOY' || d.kind === 'UNDEPLOY_RESOURCE' ? 'DELETE_IN_PROGRESS' : anyDeployed ? 'UPDATE_IN_PROGRESS' : 'CREATE_IN_PROGRESS';
    const { lastDeploymentId: _l, currentDeploymentId: _c, ...running } = { ...d, status };
    applyDeploymentUpdate(qc, projectId, running);
    if (stage && stage.lastDeploymentId === d.id && d.kind !== 'UNDEPLOY_RESOURCE') applyStageUpdate(qc, projectId, { ...stage, status });
  }
}

/**
 * The deployment as fetched, but never behind the cache: a poll answered after an event carries the
 * older state (the query's structuralSharing keeps the further of the two).
 */
export function keepFurtherDeployment(cached: unknown, fetched: unknown): unknown {
  const old = cached as Deployment | undefined;
  const fresh = fetched as Deployment | undefined;
  return old && fresh && old.id === fresh.id && further(old.status, fresh.status)
    ? { ...fresh, ...old, lastDeploymentId: fresh.lastDeploymentId, currentDeploymentId: fresh.currentDeploymentId }
    : fetched;
}

/** The history as fetched, each deployment never behind the cache. */
export function keepFurtherHistory(cached: unknown, fetched: unknown): unknown {
  const old = cached as DeploymentHistory | undefined;
  const fresh = fetched as DeploymentHistory | undefined;
  if (!old || !fresh) return fetched;
  const deployments = fresh.deployments.map(
    (d) =>
      keepFurtherDeployment(
        old.deployments.find((o) => o.id === d.id),
        d,
      ) as Deployment,
  );
  return deployments.every((d, i) => d === fresh.deployments[i]) ? fetched : { ...fresh, deployments };
}

/** The environment as fetched, unless the cache holds a newer state of it (an event the poll had not seen). */
export function keepNewerStage(cached: unknown, fetched: unknown): unknown {
  const old = cached as Stage | undefined;
  const fresh = fetched as Stage | undefined;
  if (!old || !fresh || old.id !== fresh.id || !stageNewer(old, fresh)) return fetched;
  const { status, lastDeployed, lastDeploymentId, currentDeploymentId, dateUpdated } = old;
  return { ...fresh, status, lastDeployed, lastDeploymentId, currentDeploymentId, dateUpdated };
}

/**
 * The environments list as fetched, each environment never behind the cache. The query's `select` result
 * (the bare array) passes through here too: it is derived from the kept answer and taken as it is.
 */
export function keepNewerStages(cached: unknown, fetched: unknown): unknown {
  const old = cached as StageList | undefined;
  const fresh = fetched as StageList | undefined;
  if (!old?.stages || !fresh?.stages) return fetched;
  const stages = fresh.stages.map(
    (s) =>
      keepNewerStage(
        old.stages.find((o) => o.id === s.id),
        s,
      ) as Stage,
  );
  return stages.every((s, i) => s === fresh.stages[i]) ? fetched : { ...fresh, stages };
}
