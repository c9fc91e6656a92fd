import { queryOptions, replaceEqualDeep, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  POLL,
  deploymentSettled,
  stageInProgress,
  type Deployment,
  type DeploymentHistory,
  type DeploymentStarted,
  type DeploymentTime,
  type Plan,
  type StackEvent,
  type DeploymentLogChunk,
} from '@gantry/contracts';
import { http } from '../../../api/http';
import { pollMs } from '../../../api/poll';
import { keepFurtherDeployment, keepFurtherHistory } from './apply-deployment-update';
import { deploymentTimeKeys, stageKeys } from './keys';
import { stagePath } from './paths';

/** deployStage, undeployStage, cancelDeploy, create/get/deploy plan, history, details, events, continue rollback, getDeploymentTime (spec §7). */
export const deployStage = (projectId: string, stageId: string) => http.post<DeploymentStarted>(`${stagePath(projectId, stageId)}/deploy`);
export const undeployStage = (projectId: string, stageId: string) => http.post<DeploymentStarted>(`${stagePath(projectId, stageId)}/undeploy`);
export const cancelDeploy = (projectId: string, stageId: string) => http.post(`${stagePath(projectId, stageId)}/cancel`);
export const continueRollback = (projectId: string, stageId: string) => http.post(`${stagePath(projectId, stageId)}/continue-rollback`);
export const createPlan = (projectId: string, stageId: string) => http.post<{ planId: string }>(`${stagePath(projectId, stageId)}/plans`);
export const getPlan = (projectId: string, stageId: string, planId: string) => http.get<Plan>(`${stagePath(projectId, stageId)}/plans/${planId}`);
export const deployPlan = (projectId: string, stageId: string, planId: string) =>
  http.post<DeploymentStarted>(`${stagePath(projectId, stageId)}/plans/${planId}/deploy`);
export const getHistory = (projectId: string, stageId: string) =>
  http.get<DeploymentHistory>(`${stagePath(projectId, stageId)}/deployments`, { query: { limit: 50 } });
export const getDeployment = (projectId: string, stageId: string, id: string) => http.get<Deployment>(`${stagePath(projectId, stageId)}/deployments/${id}`);
export const getDeploymentLogs = (projectId: string, stageId: string, id: string) =>
  http.get<{ chunks: DeploymentLogChunk[] }>(`${stagePath(projectId, stageId)}/deployments/${id}/logs`);
export const getEvents = (projectId: string, stageId: string) => http.get<{ events: StackEvent[] }>(`${stagePath(projectId, stageId)}/events`);
export const getDeploymentTime = (projectId: string) => http.get<DeploymentTime>(`/ms-elasticsearch/projects/${projectId}/deployment-time`);

/** The plan, every 5 s until it exists (spec §4). */
export const usePlan = (projectId: string, stageId: string, planId: string | null) =>
  useQuery({
    queryKey: stageKeys.plan(projectId, stageId, planId ?? ''),
    queryFn: () => getPlan(projectId, stageId, planId!),
    enabled: Boolean(projectId && stageId && planId),
    refetchInterval: (q) => (!q.state.data || q.state.data.status === 'CREATING' ? pollMs(POLL.planMs) : false),
    retry: 1,
  });

/** The history, every 10 s while the latest deployment runs (spec §9); the socket's events come first, a poll never takes a status back. */
export const historyQuery = (projectId: string, stageId: string) =>
  queryOptions({
    queryKey: stageKeys.deployments(projectId, stageId),
    queryFn: () => getHistory(projectId, stageId),
    refetchInterval: (q) => (q.state.data?.deployments[0] && !deploymentSettled(q.state.data.deployments[0].status) ? pollMs(POLL.deploymentListMs) : false),
    structuralSharing: (cached, fetched) => replaceEqualDeep(cached, keepFurtherHistory(cached, fetched)),
  });
export const useHistory = (projectId: string, stageId: string, enabled = true) =>
  useQuery({ ...historyQuery(projectId, stageId), enabled: enabled && Boolean(projectId && stageId) });

/** One deployment, every 5 s until it settles (spec §4); the socket's events come first, a poll never takes a status back. */
export const useDeployment = (projectId: string, stageId: string, id: string | null | undefined) =>
  useQuery({
    queryKey: stageKeys.deployment(projectId, stageId, id ?? ''),
    queryFn: () => getDeployment(projectId, stageId, id!),
    enabled: Boolean(projectId && stageId && id),
    refetchInterval: (q) => (q.state.data && deploymentSettled(q.state.data.status) ? false : pollMs(POLL.deploymentDetailsMs)),
    structuralSharing: (cached, fetched) => replaceEqualDeep(cached, keepFurtherDeployment(cached, fetched)),
  });

export const useEvents = (projectId: string, stageId: string, polling: boolean, enabled: boolean) =>
  useQuery({
    queryKey: stageKeys.events(projectId, stageId),
    queryFn: () => getEvents(projectId, stageId),
    select: (d) => d.events,
    enabled,
    refetchInterval: polling ? POLL.deploymentDetailsMs : false,
  });

export const useDeploymentTime = (projectId: string, enabled = true) =>
  useQuery({ queryKey: deploymentTimeKeys.project(projectId), queryFn: () => getDeploymentTime(projectId), enabled: Boolean(projectId) && enabled });

/** Stage actions; each refreshes the environment, its resources and its history. */
export function useStageActions(projectId: string, stageId: string) {
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: stageKeys.detail(projectId, stageId) });
    void qc.invalidateQueries({ queryKey: stageKeys.list(projectId) });
  };
  const opts = { onSuccess: refresh };
  return {
    deploy: useMutation({ mutationFn: () => deployStage(projectId, stageId), ...opts }),
    undeploy: useMutation({ mutationFn: () => undeployStage(projectId, stageId), ...opts }),
    cancel: useMutation({ mutationFn: () => cancelDeploy(projectId, stageId), ...opts }),
    plan: useMutation({ mutationFn: () => createPlan(projectId, stageId), ...opts }),
    deployPlan: useMutation({ mutationFn: (planId: string) => deployPlan(projectId, stageId, planId), ...opts }),
    continueRollback: useMutation({ mutationFn: () => continueRollback(projectId, stageId), ...opts }),
  };
}

export { stageInProgress };
