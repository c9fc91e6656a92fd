import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Resource, ResourceBody, ResourceOutputs } from '@gantry/contracts';
import { http } from '../../../api/http';
import { pollMs } from '../../../api/poll';
import { stageKeys } from './keys';
import { resourcePath, stagePath } from './paths';

/** getStageResources, createResource, updateResource, deleteResource, undeployResource, getOutputsForResource (spec §7). */
export const listResources = (projectId: string, stageId: string) => http.get<{ resources: Resource[] }>(`${stagePath(projectId, stageId)}/resources`);
export const createResource = (projectId: string, stageId: string, body: ResourceBody) =>
  http.post<Resource>(`${stagePath(projectId, stageId)}/resources`, body);
export const updateResource = (projectId: string, stageId: string, name: string, body: ResourceBody) =>
  http.put<Resource>(resourcePath(projectId, stageId, name), body);
export const deleteResource = (projectId: string, stageId: string, name: string) => http.delete(resourcePath(projectId, stageId, name));
export const undeployResource = (projectId: string, stageId: string, name: string) =>
  http.post<{ deploymentId: string; status: string }>(`${resourcePath(projectId, stageId, name)}/undeploy`);
export const getOutputs = (projectId: string, stageId: string, name: string) => http.get<ResourceOutputs>(`${resourcePath(projectId, stageId, name)}/outputs`);

export const resourcesQuery = (projectId: string, stageId: string, polling: boolean) =>
  queryOptions({
    queryKey: stageKeys.resources(projectId, stageId),
    queryFn: () => listResources(projectId, stageId),
    select: (d) => d.resources,
    refetchInterval: polling ? pollMs(5000) : false,
  });
export const useResources = (projectId: string, stageId: string, polling = false) =>
  useQuery({ ...resourcesQuery(projectId, stageId, polling), enabled: Boolean(projectId && stageId) });

/** Outputs load when a resource card is opened. */
export const useOutputs = (projectId: string, stageId: string, name: string, enabled: boolean) =>
  useQuery({ queryKey: stageKeys.outputs(projectId, stageId, name), queryFn: () => getOutputs(projectId, stageId, name), enabled, select: (d) => d.outputs });

export function useResourceMutations(projectId: string, stageId: string) {
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: stageKeys.resources(projectId, stageId) });
    void qc.invalidateQueries({ queryKey: stageKeys.detail(projectId, stageId), exact: true });
  };
  return {
    save: useMutation({
      mutationFn: (v: { editing: string | null; body: ResourceBody }) =>
        v.editing ? updateResource(projectId, stageId, v.editing, v.body) : createResource(projectId, stageId, v.body),
      onSuccess: refresh,
    }),
    remove: useMutation({ mutationFn: (name: string) => deleteResource(projectId, stageId, name), onSuccess: refresh }),
    undeploy: useMutation({ mutationFn: (name: string) => undeployResource(projectId, stageId, name), onSuccess: refresh }),
  };
}
