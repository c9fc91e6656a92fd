import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { POD_LOG_REFRESH_MS, type DeploymentHistoryPage, type PodEventList, type PodList, type PodLogs } from '@gantry/contracts';
import { http } from '../../../api/http';
import { microservicePath, serviceInClusterPath, serviceKeys } from './keys';
import type { ServiceInCluster } from './deployments';

/** Reads of one service in one namespace of a cluster (spec §2 service detail in a cluster, §7). */
const path = (projectId: string, s: ServiceInCluster) => serviceInClusterPath(projectId, s.clusterId, s.namespace, s.name);
const key = (projectId: string, s: ServiceInCluster) => serviceKeys.inCluster(projectId, s.clusterId, s.namespace, s.name);

export const usePods = (projectId: string, s: ServiceInCluster, enabled = true) =>
  useQuery({
    queryKey: [...key(projectId, s), 'pods'],
    queryFn: ({ signal }) => http.get<PodList>(`${path(projectId, s)}/pods`, { signal }),
    select: (d: PodList) => d.pods,
    enabled: enabled && Boolean(projectId),
    refetchInterval: 10_000,
    retry: false,
  });

export const usePodEvents = (projectId: string, s: ServiceInCluster, enabled: boolean) =>
  useQuery({
    queryKey: [...key(projectId, s), 'events'],
    queryFn: ({ signal }) => http.get<PodEventList>(`${path(projectId, s)}/events`, { signal }),
    select: (d: PodEventList) => d.events,
    enabled: enabled && Boolean(projectId),
    refetchInterval: 10_000,
    retry: false,
  });

/** Pod logs (spec §2): refreshed every 5 seconds while auto-refresh is on; `previous` reads the last terminated container's. */
export const usePodLogs = (projectId: string, s: ServiceInCluster, pod: string | null, o: { previous: boolean; autoRefresh: boolean; enabled: boolean }) =>
  useQuery({
    queryKey: serviceKeys.podLogs(projectId, s, pod ?? '', o.previous),
    queryFn: ({ signal }) => http.get<PodLogs>(`${path(projectId, s)}/logs`, { query: { pod, previous: o.previous ? 'true' : undefined }, signal }),
    enabled: o.enabled && Boolean(projectId && pod),
    refetchInterval: o.autoRefresh ? POD_LOG_REFRESH_MS : false,
    retry: false,
  });

export const useKubernetesSpec = (projectId: string, s: ServiceInCluster, enabled: boolean) =>
  useQuery({
    queryKey: [...key(projectId, s), 'spec'],
    queryFn: ({ signal }) => http.get<{ objects: Record<string, unknown>[] }>(`${path(projectId, s)}/spec`, { signal }),
    enabled: enabled && Boolean(projectId),
    retry: false,
  });

export const HISTORY_PAGE_SIZE = 10;

/** Service deployment history (spec §7), newest first, 10 a page with more on demand (the history is not capped). */
export const useDeploymentHistory = (projectId: string, s: ServiceInCluster) =>
  useInfiniteQuery({
    queryKey: serviceKeys.history(projectId, s.name, s.clusterId, s.namespace),
    queryFn: ({ pageParam, signal }) =>
      http.get<DeploymentHistoryPage>(`${microservicePath(projectId, s.name)}/history`, {
        query: { clusterId: s.clusterId, namespace: s.namespace, offset: pageParam, limit: HISTORY_PAGE_SIZE },
        signal,
      }),
    initialPageParam: 0,
    getNextPageParam: (page) => (page.lastElementCursor === -1 ? undefined : page.lastElementCursor),
    enabled: Boolean(projectId),
    refetchInterval: 10_000,
  });

/** The live follow stream's address (spec §2 logs; read with fetch and a stream reader, see contracts LOG_STREAM). */
export const podLogStreamPath = (projectId: string, s: ServiceInCluster) => `${path(projectId, s)}/logs/stream`;
