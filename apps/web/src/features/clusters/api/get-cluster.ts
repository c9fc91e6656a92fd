import { useQuery } from '@tanstack/react-query';
import type { Cluster } from '@gantry/contracts';
import { http } from '../../../api/http';
import { clusterKeys, clusterPath } from './keys';

/** One cluster; its apiToken always comes back as '(sensitive)'. */
export const getCluster = (projectId: string, clusterId: string) => http.get<Cluster>(clusterPath(projectId, clusterId));

export const useCluster = (projectId: string, clusterId: string | undefined) =>
  useQuery({
    queryKey: clusterKeys.detail(projectId, clusterId ?? ''),
    queryFn: () => getCluster(projectId, clusterId ?? ''),
    enabled: Boolean(projectId && clusterId),
  });
