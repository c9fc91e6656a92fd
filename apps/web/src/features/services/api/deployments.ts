import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeployBody, DeployResult, DeployedMicroserviceList, DeploymentStatus, MicroservicesStatus } from '@gantry/contracts';
import { http } from '../../../api/http';
import { isPlanLimit } from '../../../api/errors';
import { clusterServicesPath, isPodLogsKey, serviceInClusterPath, serviceKeys } from './keys';

/** Spec §9: the dashboard reads again every 10 seconds (as the cluster status does). */
export const SERVICES_STATUS_POLL_MS = 10_000;

export type ServiceInCluster = { clusterId: string; namespace: string; name: string };

/** The dashboard's services table: one row per service Gantry deployed in the cluster, every namespace. */
export const getMicroservicesStatus = (projectId: string, clusterId: string, signal?: AbortSignal) =>
  http.get<MicroservicesStatus>(`${clusterServicesPath(projectId, clusterId)}/microservices-status`, { signal });

export const useMicroservicesStatus = (projectId: string, clusterId: string | undefined, enabled = true) =>
  useQuery({
    queryKey: serviceKeys.clusterStatus(projectId, clusterId ?? ''),
    queryFn: ({ signal }) => getMicroservicesStatus(projectId, clusterId ?? '', signal),
    select: (d: MicroservicesStatus) => d.microservicesStatus,
    enabled: enabled && Boolean(projectId && clusterId),
    refetchInterval: (q) => (isPlanLimit(q.state.error) ? false : SERVICES_STATUS_POLL_MS),
    retry: false,
  });

/** getMicroserviceDeploymentStatus (spec §7): usage and the stored configurations (not deployed: empty, spec §4's 404). */
export const getDeploymentStatus = (projectId: string, s: ServiceInCluster, signal?: AbortSignal) =>
  http.get<DeploymentStatus>(`${serviceInClusterPath(projectId, s.clusterId, s.namespace, s.name)}/status`, { signal });

export const useDeploymentStatus = (projectId: string, s: Partial<ServiceInCluster>, options: { enabled?: boolean; poll?: number } = {}) =>
  useQuery({
    queryKey: [...serviceKeys.inCluster(projectId, s.clusterId ?? '', s.namespace ?? '', s.name ?? ''), 'status'],
    queryFn: ({ signal }) => getDeploymentStatus(projectId, s as ServiceInCluster, signal),
    enabled: (options.enabled ?? true) && Boolean(projectId && s.clusterId && s.namespace && s.name),
    refetchInterval: options.poll,
    retry: false,
  });

/** deployMicroservice (spec §7): server-side apply of the service's objects; refreshes what the cluster shows. */
export const deployMicroservice = (projectId: string, s: ServiceInCluster, body: DeployBody) =>
  http.post<DeployResult>(`${serviceInClusterPath(projectId, s.clusterId, s.namespace, s.name)}/deploy`, body);

/** Undeploy (spec §7): removes what deploy created; answers done. */
export const undeployMicroservice = (projectId: string, s: ServiceInCluster) =>
  http.delete<{ done: true }>(serviceInClusterPath(projectId, s.clusterId, s.namespace, s.name));

/** After a deploy or an undeploy: everything read from that cluster, and the service's history. */
function useRefreshCluster(projectId: string) {
  const qc = useQueryClient();
  return (s: ServiceInCluster) => {
    // but a pod's logs: that pod may be gone with it (the page follows the pods it reads anew)
    void qc.invalidateQueries({ queryKey: serviceKeys.cluster(projectId, s.clusterId), predicate: (q) => !isPodLogsKey(q.queryKey) });
    void qc.invalidateQueries({ queryKey: [...serviceKeys.all(projectId), 'history', s.name] });
    // The cluster's own figures (deployments, pods) are the clusters area's keys: refresh them by their prefix.
    void qc.invalidateQueries({ queryKey: ['clusters', projectId] });
  };
}

export function useDeployMicroservice(projectId: string) {
  const refresh = useRefreshCluster(projectId);
  return useMutation({
    mutationFn: ({ target, body }: { target: ServiceInCluster; body: DeployBody }) => deployMicroservice(projectId, target, body),
    onSettled: (_r, _e, { target }) => refresh(target),
  });
}

export function useUndeployMicroservice(projectId: string) {
  const refresh = useRefreshCluster(projectId);
  return useMutation({
    mutationFn: (target: ServiceInCluster) => undeployMicroservice(projectId, target),
    // Spec §4: the status is refreshed either way.
    onSettled: (_r, _e, target) => refresh(target),
  });
}

/** getDeployedMicroservices (spec §7): what Gantry deployed in the cluster (name, namespace, version, commit). */
export const getDeployedMicroservices = (projectId: string, clusterId: string, signal?: AbortSignal) =>
  http.get<DeployedMicroserviceList>(`${clusterServicesPath(projectId, clusterId)}/microservices`, { signal });

export const useDeployedMicroservices = (projectId: string, clusterId: string | undefined, enabled = true) =>
  useQuery({
    queryKey: [...serviceKeys.cluster(projectId, clusterId ?? ''), 'deployed'],
    queryFn: ({ signal }) => getDeployedMicroservices(projectId, clusterId ?? '', signal),
    select: (d: DeployedMicroserviceList) => d.deployedMicroservices,
    enabled: enabled && Boolean(projectId && clusterId),
    retry: false,
  });
