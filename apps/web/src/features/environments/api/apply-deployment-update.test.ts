import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Deployment, DeploymentHistory, DeploymentUpdateEvent, Resource, Stage } from '@gantry/contracts';
import {
  applyDeploymentStreaming,
  applyDeploymentUpdate,
  applyStageUpdate,
  keepFurtherDeployment,
  keepFurtherHistory,
  keepNewerStage,
  keepNewerStages,
} from './apply-deployment-update';
import { deploymentTimeKeys, stageKeys } from './keys';

const P = 'project';
const S = 'stage-1';
const T0 = '2026-01-01T00:00:00.000Z';
const T1 = '2026-01-01T00:00:01.000Z';
const T2 = '2026-01-01T00:00:02.000Z';

const deployment = (id: string, status: string, more: Partial<Deployment> = {}): Deployment =>
  ({
    id,
    deploymentId: id,
    stageId: S,
    kind: 'DEPLOY',
    status,
    timestamp: T0,
    startedAt: null,
    finishedAt: null,
    durationMs: null,
    error: null,
    planId: null,
    resourceName: null,
    lastDeploymentId: id,
    currentDeploymentId: 'old',
    resources: [],
    logs: {},
    startedBy: null,
    ...more,
  }) as Deployment;
const event = (d: Deployment): DeploymentUpdateEvent => {
  const { lastDeploymentId: _l, currentDeploymentId: _c, ...rest } = d;
  return rest;
};
const stage = (status: string, more: Partial<Stage> = {}): Stage =>
  ({ id: S, name: 'staging', status, lastDeployed: null, lastDeploymentId: 'd1', currentDeploymentId: 'old', dateUpdated: T0, ...more }) as Stage;
const resource = (name: string, status: string, isDeployed: boolean) =>
  ({ name, status, isDeployed, component: { id: 'c', name: 'c', type: 'Other' } }) as Resource;

function cache() {
  const qc = new QueryClient();
  qc.setQueryData(stageKeys.deployment(P, S, 'd1'), deployment('d1', 'DEPLOY_QUEUED'));
  qc.setQueryData<DeploymentHistory>(stageKeys.deployments(P, S), {
    deployments: [deployment('d1', 'DEPLOY_QUEUED'), deployment('old', 'CREATE_COMPLETE')],
    limitedByPlan: false,
  });
  qc.setQueryData(stageKeys.detail(P, S), stage('DEPLOY_QUEUED'));
  qc.setQueryData(stageKeys.list(P), { stages: [stage('DEPLOY_QUEUED'), { ...stage('NOT_DEPLOYED'), id: 'other' }] });
  qc.setQueryData(stageKeys.resources(P, S), { resources: [resource('site', 'NOT_DEPLOYED', false)] });
  return qc;
}
const detail = (qc: QueryClient) => qc.getQueryData<Deployment>(stageKeys.deployment(P, S, 'd1'));
const history = (qc: QueryClient) => qc.getQueryData<DeploymentHistory>(stageKeys.deployments(P, S))!.deployments.map((d) => `${d.id}:${d.status}`);
const stageStatus = (qc: QueryClient) => qc.getQueryData<Stage>(stageKeys.detail(P, S))?.status;
const listed = (qc: QueryClient) => qc.getQueryData<{ stages: Stage[] }>(stageKeys.list(P))!.stages.map((s) => `${s.id}:${s.status}`);

describe('deployment:update and stage:update in the cache', () => {
  it('shows the deployment running and then finished on its page and in the history at once', () => {
    const qc = cache();
    applyDeploymentUpdate(qc, P, event(deployment('d1', 'CREATE_IN_PROGRESS', { startedAt: T1 })));
    expect(detail(qc)).toMatchObject({ status: 'CREATE_IN_PROGRESS', startedAt: T1, currentDeploymentId: 'old' });
    expect(history(qc)).toEqual(['d1:CREATE_IN_PROGRESS', 'old:CREATE_COMPLETE']);
    applyDeploymentUpdate(qc, P, event(deployment('d1', 'CREATE_COMPLETE', { startedAt: T1, finishedAt: T2, durationMs: 1000 })));
    expect(detail(qc)).toMatchObject({ status: 'CREATE_COMPLETE', finishedAt: T2, durationMs: 1000 });
    expect(history(qc)).toEqual(['d1:CREATE_COMPLETE', 'old:CREATE_COMPLETE']);
  });

  it("has the month's deployment time read again when a run ends, not while it runs", () => {
    const qc = cache();
    qc.setQueryData(deploymentTimeKeys.project(P), { deploymentTime: 0, stages: [] });
    const stale = () => qc.getQueryState(deploymentTimeKeys.project(P))!.isInvalidated;
    applyDeploymentUpdate(qc, P, event(deployment('d1', 'CREATE_IN_PROGRESS', { startedAt: T1 })));
    expect(stale()).toBe(false);
    applyDeploymentUpdate(qc, P, event(deployment('d1', 'CREATE_COMPLETE', { startedAt: T1, finishedAt: T2, durationMs: 1000 })));
    expect(stale()).toBe(true);
  });

  it("has the environment's stack events read again when a run ends (their poll stopped with it), not while it runs", () => {
    const qc = cache();
    qc.setQueryData(stageKeys.events(P, S), { events: [] });
    qc.setQueryData(stageKeys.events(P, 'other'), { events: [] });
    const stale = (stageId: string) => qc.getQueryState(stageKeys.events(P, stageId))!.isInvalidated;
    applyDeploymentUpdate(qc, P, event(deployment('d1', 'UPDATE_IN_PROGRESS', { startedAt: T1 })));
    expect(stale(S)).toBe(false);
    applyDeploymentUpdate(qc, P, event(deployment('d1', 'UPDATE_ROLLBACK_COMPLETE', { startedAt: T1, finishedAt: T2, durationMs: 1000 })));
    expect([stale(S), stale('other')]).toEqual([true, false]);
  });

  it('never takes a status back: a late event of an earlier state is ignored', () => {
    const qc = cache();
    applyDeploymentUpdate(qc, P, event(deployment('d1', 'UPDATE_FAILED', { error: 'boom' })));
    applyDeploymentUpdate(qc, P, event(deployment('d1', 'UPDATE_IN_PROGRESS')));
    expect(detail(qc)).toMatchObject({ status: 'UPDATE_FAILED', error: 'boom' });
    expect(history(qc)).toEqual(['d1:UPDATE_FAILED', 'old:CREATE_COMPLETE']);
  });

  it('puts a new deployment first in the history, alone when the plan shows only the latest', () => {
    const qc = cache();
    applyDeploymentUpdate(qc, P, event(deployment('d2', 'DELETE_IN_PROGRESS', { kind: 'UNDEPLOY' })));
    expect(history(qc)).toEqual(['d2:DELETE_IN_PROGRESS', 'd1:DEPLOY_QUEUED', 'old:CREATE_COMPLETE']);
    const limited = new QueryClient();
    limited.setQueryData<DeploymentHistory>(stageKeys.deployments(P, S), { deployments: [deployment('d1', 'CREATE_COMPLETE')], limitedByPlan: true });
    applyDeploymentUpdate(limited, P, event(deployment('d2', 'DEPLOY_QUEUED')));
    expect(history(limited)).toEqual(['d2:DEPLOY_QUEUED']);
  });

  it("moves the environment on in its page and in the list, with its resources' statuses", async () => {
    const qc = cache();
    applyStageUpdate(qc, P, { id: S, status: 'CREATE_IN_PROGRESS', lastDeployed: null, lastDeploymentId: 'd1', currentDeploymentId: 'old', dateUpdated: T1 });
    expect(stageStatus(qc)).toBe('CREATE_IN_PROGRESS');
    expect(listed(qc)).toEqual([`${S}:CREATE_IN_PROGRESS`, 'other:NOT_DEPLOYED']);
    applyStageUpdate(qc, P, {
      id: S,
      status: 'CREATE_COMPLETE',
      lastDeployed: T2,
      lastDeploymentId: 'd1',
      currentDeploymentId: 'd1',
      dateUpdated: T2,
      resources: [{ name: 'site', status: 'CREATE_COMPLETE', isDeployed: true }],
    });
    expect(qc.getQueryData<Stage>(stageKeys.detail(P, S))).toMatchObject({ status: 'CREATE_COMPLETE', lastDeployed: T2, currentDeploymentId: 'd1' });
    expect(listed(qc)).toEqual([`${S}:CREATE_COMPLETE`, 'other:NOT_DEPLOYED']);
    await new Promise((r) => setTimeout(r, 0)); // the resources are written once a poll under way is dropped
    expect(qc.getQueryData<{ resources: Resource[] }>(stageKeys.resources(P, S))!.resources[0]).toMatchObject({ status: 'CREATE_COMPLETE', isDeployed: true });
    // an event older than what the cache holds (written before) is ignored
    applyStageUpdate(qc, P, { id: S, status: 'CREATE_IN_PROGRESS', lastDeployed: null, lastDeploymentId: 'd1', currentDeploymentId: 'old', dateUpdated: T1 });
    expect(stageStatus(qc)).toBe('CREATE_COMPLETE');
  });

  it('shows a queued deployment and its environment running while its log streams', () => {
    const qc = cache();
    applyDeploymentStreaming(qc, P, { deploymentId: 'd1' });
    expect(detail(qc)?.status).toBe('CREATE_IN_PROGRESS');
    expect(history(qc)).toEqual(['d1:CREATE_IN_PROGRESS', 'old:CREATE_COMPLETE']);
    expect(stageStatus(qc)).toBe('CREATE_IN_PROGRESS');
    // once finished, a late chunk changes nothing
    applyDeploymentUpdate(qc, P, event(deployment('d1', 'CREATE_COMPLETE')));
    applyDeploymentStreaming(qc, P, { deploymentId: 'd1' });
    expect(detail(qc)?.status).toBe('CREATE_COMPLETE');
  });
});

describe('a poll never takes a status back', () => {
  it('keeps the deployment the socket moved further, and takes a poll that is further', () => {
    const pushed = deployment('d1', 'CREATE_COMPLETE', { finishedAt: T2 });
    const polled = deployment('d1', 'CREATE_IN_PROGRESS', { currentDeploymentId: 'd1' });
    expect(keepFurtherDeployment(pushed, polled)).toMatchObject({ status: 'CREATE_COMPLETE', finishedAt: T2, currentDeploymentId: 'd1' });
    expect(keepFurtherDeployment(polled, pushed)).toBe(pushed);
    const list = (d: Deployment) => ({ deployments: [d, deployment('old', 'CREATE_COMPLETE')], limitedByPlan: false });
    expect((keepFurtherHistory(list(pushed), list(polled)) as DeploymentHistory).deployments[0]!.status).toBe('CREATE_COMPLETE');
    const fresh = list(deployment('d1', 'CREATE_COMPLETE'));
    expect(keepFurtherHistory(list(polled), fresh)).toBe(fresh);
  });

  it('keeps an environment written later than the poll saw it, and takes a newer poll', () => {
    const pushed = stage('UPDATE_IN_PROGRESS', { lastDeploymentId: 'd2', dateUpdated: T2 });
    const polled = stage('UPDATE_COMPLETE', { lastDeploymentId: 'd1', dateUpdated: T1, description: 'edited' });
    expect(keepNewerStage(pushed, polled)).toMatchObject({ status: 'UPDATE_IN_PROGRESS', lastDeploymentId: 'd2', description: 'edited' });
    const newer = stage('UPDATE_COMPLETE', { lastDeploymentId: 'd2', dateUpdated: '2026-01-01T00:00:03.000Z' });
    expect(keepNewerStage(pushed, newer)).toBe(newer);
    expect((keepNewerStages({ stages: [pushed] }, { stages: [polled] }) as { stages: Stage[] }).stages[0]!.status).toBe('UPDATE_IN_PROGRESS');
    // the list's select result (the bare array) is taken as it is
    expect(keepNewerStages([pushed], [polled])).toEqual([polled]);
    // the log showed it running before its write: a poll of the same write still queued does not take it back
    expect(keepNewerStage(stage('CREATE_IN_PROGRESS'), stage('DEPLOY_QUEUED'))).toMatchObject({ status: 'CREATE_IN_PROGRESS' });
  });
});
