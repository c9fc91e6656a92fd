import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Cluster, CreateClusterBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { clusterKeys, clustersPath } from './keys';

export const createCluster = (projectId: string, body: CreateClusterBody) => http.post<Cluster>(clustersPath(projectId), body);

export function useCreateCluster(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateClusterBody) => createCluster(projectId, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: clusterKeys.all(projectId) }),
  });
}
