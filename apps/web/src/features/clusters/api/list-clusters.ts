import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClusterList } from '@gantry/contracts';
import { http } from '../../../api/http';
import { clusterKeys, clustersPath } from './keys';

/** listKubernetes (spec §7); `detailed` adds each cluster's status, or the reason it is not reachable. */
export const listClusters = (projectId: string, detailed = false) =>
  http.get<ClusterList>(clustersPath(projectId), { query: detailed ? { detailed: 'true' } : undefined });

export const clustersQuery = (projectId: string, detailed = false) =>
  queryOptions({
    queryKey: clusterKeys.list(projectId, detailed),
    queryFn: () => listClusters(projectId, detailed),
    select: (d: ClusterList) => [...d.kuberneteses].sort((a, b) => a.name.localeCompare(b.name)),
  });

/** The project's clusters by name; `detailed` asks each one for its status (slower: the server calls every cluster). */
export const useClusters = (projectId: string | undefined, detailed = false) =>
  useQuery({ ...clustersQuery(projectId ?? '', detailed), enabled: Boolean(projectId) });
