import { queryOptions, replaceEqualDeep, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { stageInProgress, type Stage, type StageBody, type StageFromTemplateBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { pollMs } from '../../../api/poll';
import { keepNewerStage, keepNewerStages } from './apply-deployment-update';
import { stageKeys } from './keys';
import { stagePath, stagesPath } from './paths';

/** getStages, getStage, createStage (also the probe), updateStage, deleteStage (spec §7). */
export const listStages = (projectId: string) => http.get<{ stages: Stage[] }>(stagesPath(projectId));
export const getStage = (projectId: string, stageId: string) => http.get<Stage>(stagePath(projectId, stageId));
export const createStage = (projectId: string, body: StageBody) => http.post<{ stageId: string }>(stagesPath(projectId), body);
/** The environment, its template's resources and its saving schedule in one call: all or nothing (spec §2). */
export const createStageFromTemplate = (projectId: string, body: StageFromTemplateBody) =>
  http.post<{ stageId: string }>(`${stagesPath(projectId)}/from-template`, body);
export const updateStage = (projectId: string, stageId: string, body: StageBody) => http.put<Stage>(stagePath(projectId, stageId), body);
export const deleteStage = (projectId: string, stageId: string) => http.delete(stagePath(projectId, stageId));

/** The list wherever it is read; statuses pushed over the socket (stage:update) are never taken back by a later answer. */
const stageListQuery = (projectId: string) =>
  queryOptions({
    queryKey: stageKeys.list(projectId),
    queryFn: () => listStages(projectId),
    select: (d) => d.stages,
    structuralSharing: (cached, fetched) => replaceEqualDeep(cached, keepNewerStages(cached, fetched)),
  });

/** While any environment deploys, the list follows it (every 5 s); the socket's events come first. */
export const stagesQuery = (projectId: string) =>
  queryOptions({
    ...stageListQuery(projectId),
    refetchInterval: (q) => (q.state.data?.stages.some((s) => stageInProgress(s.status)) ? pollMs(5000) : false),
  });
export const useStages = (projectId: string) => useQuery({ ...stagesQuery(projectId), enabled: Boolean(projectId) });

/** The list as another area reads it (the Add to Environment dialog): the same cache entry, without following deployments. */
export const useStageList = (projectId: string, enabled = true) => useQuery({ ...stageListQuery(projectId), enabled: Boolean(projectId) && enabled });

export const stageQuery = (projectId: string, stageId: string) =>
  queryOptions({
    queryKey: stageKeys.detail(projectId, stageId),
    queryFn: () => getStage(projectId, stageId),
    refetchInterval: (q) => (stageInProgress(q.state.data?.status) ? pollMs(5000) : false),
    structuralSharing: (cached, fetched) => replaceEqualDeep(cached, keepNewerStage(cached, fetched)),
  });
export const useStage = (projectId: string, stageId: string | undefined) =>
  useQuery({ ...stageQuery(projectId, stageId ?? ''), enabled: Boolean(projectId && stageId) });

export function useDeleteStage(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (stageId: string) => deleteStage(projectId, stageId),
    onSuccess: () => void qc.invalidateQueries({ queryKey: stageKeys.list(projectId) }),
  });
}
