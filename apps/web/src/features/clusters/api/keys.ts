/** Query keys of the clusters area; every key starts with the project id. */
export const clusterKeys = {
  all: (projectId: string) => ['clusters', projectId] as const,
  list: (projectId: string, detailed: boolean) => [...clusterKeys.all(projectId), 'list', detailed ? 'detailed' : 'plain'] as const,
  detail: (projectId: string, clusterId: string) => [...clusterKeys.all(projectId), 'detail', clusterId] as const,
  status: (projectId: string, clusterId: string) => [...clusterKeys.all(projectId), 'status', clusterId] as const,
  namespaces: (projectId: string, clusterId: string) => [...clusterKeys.all(projectId), 'namespaces', clusterId] as const,
};

export const clustersPath = (projectId: string) => `/ms-kube/projects/${projectId}/kubernetes`;
export const clusterPath = (projectId: string, clusterId: string) => `${clustersPath(projectId)}/${encodeURIComponent(clusterId)}`;
