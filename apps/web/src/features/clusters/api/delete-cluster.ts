import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../api/http';
import { clusterKeys, clusterPath } from './keys';

export const deleteCluster = (projectId: string, clusterId: string) => http.delete<unknown>(clusterPath(projectId, clusterId));

export function useDeleteCluster(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (clusterId: string) => deleteCluster(projectId, clusterId),
    onSuccess: (_ok, clusterId) => {
      for (const key of [clusterKeys.detail, clusterKeys.status, clusterKeys.namespaces]) qc.removeQueries({ queryKey: key(projectId, clusterId) });
      void qc.invalidateQueries({ queryKey: clusterKeys.all(projectId) });
    },
  });
}
