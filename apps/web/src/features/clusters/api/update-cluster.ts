import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Cluster, UpdateClusterBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { clusterKeys, clusterPath } from './keys';

/** PUT; an apiToken left out (or '(sensitive)') keeps the stored one. */
export const updateCluster = (projectId: string, clusterId: string, body: UpdateClusterBody) => http.put<Cluster>(clusterPath(projectId, clusterId), body);

export function useUpdateCluster(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ clusterId, body }: { clusterId: string; body: UpdateClusterBody }) => updateCluster(projectId, clusterId, body),
    // Endpoint or token may point somewhere else now: status and namespaces are read again too.
    onSuccess: () => qc.invalidateQueries({ queryKey: clusterKeys.all(projectId) }),
  });
}
