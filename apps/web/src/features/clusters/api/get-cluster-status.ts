import { useQuery } from '@tanstack/react-query';
import type { ClusterStatus } from '@gantry/contracts';
import { http } from '../../../api/http';
import { isPlanLimit } from '../../../api/errors';
import { clusterKeys, clusterPath } from './keys';

/** Spec §9: the dashboard reads the status again every 10 seconds. */
export const STATUS_POLL_MS = 10_000;

/** getKubernetesStatus (spec §7); a 402 means the plan lacks the Kubernetes dashboard. */
export const getClusterStatus = (projectId: string, clusterId: string, signal?: AbortSignal) =>
  http.get<ClusterStatus>(`${clusterPath(projectId, clusterId)}/status`, { signal });

/** The cluster's status, polled every 10 s; polling stops on a 402 (the trial-expired page replaces the dashboard). */
export const useClusterStatus = (projectId: string, clusterId: string | undefined, enabled = true) =>
  useQuery({
    queryKey: clusterKeys.status(projectId, clusterId ?? ''),
    queryFn: ({ signal }) => getClusterStatus(projectId, clusterId ?? '', signal),
    enabled: enabled && Boolean(projectId && clusterId),
    refetchInterval: (q) => (isPlanLimit(q.state.error) ? false : STATUS_POLL_MS),
    retry: false,
  });
