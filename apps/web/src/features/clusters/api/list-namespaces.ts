import { useQuery } from '@tanstack/react-query';
import type { NamespaceList } from '@gantry/contracts';
import { http } from '../../../api/http';
import { clusterKeys, clusterPath } from './keys';

/** getNamespaces (spec §7). */
export const listNamespaces = (projectId: string, clusterId: string) => http.get<NamespaceList>(`${clusterPath(projectId, clusterId)}/namespaces`);

/** Distinct namespace names in the order the cluster gives them (spec §2: one tab per distinct namespace). */
export const distinctNamespaces = (d: NamespaceList) => [...new Set(d.namespaces.map((n) => n.metadata.name))];

export const useNamespaces = (projectId: string, clusterId: string | undefined, enabled = true) =>
  useQuery({
    queryKey: clusterKeys.namespaces(projectId, clusterId ?? ''),
    queryFn: () => listNamespaces(projectId, clusterId ?? ''),
    select: distinctNamespaces,
    enabled: enabled && Boolean(projectId && clusterId),
  });
