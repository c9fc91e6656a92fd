/** Query keys of the services area; every key starts with the project id. */
export const serviceKeys = {
  all: (projectId: string) => ['services', projectId] as const,
  list: (projectId: string) => [...serviceKeys.all(projectId), 'list'] as const,
  detail: (projectId: string, name: string) => [...serviceKeys.all(projectId), 'detail', name] as const,
  versions: (projectId: string, name: string) => [...serviceKeys.all(projectId), 'versions', name] as const,
  history: (projectId: string, name: string, clusterId: string, namespace: string) =>
    [...serviceKeys.all(projectId), 'history', name, clusterId, namespace] as const,
  /** Everything read from one cluster: its services' statuses, and per service status, pods, events, logs and spec. */
  cluster: (projectId: string, clusterId: string) => [...serviceKeys.all(projectId), 'cluster', clusterId] as const,
  clusterStatus: (projectId: string, clusterId: string) => [...serviceKeys.cluster(projectId, clusterId), 'microservices-status'] as const,
  inCluster: (projectId: string, clusterId: string, namespace: string, name: string) =>
    [...serviceKeys.cluster(projectId, clusterId), 'ns', namespace, name] as const,
  /** A pod's logs ('podLogs' is no Kubernetes name, those are lower-case: no namespace or service is taken for it). */
  podLogs: (projectId: string, s: { clusterId: string; namespace: string; name: string }, pod: string, previous: boolean) =>
    [...serviceKeys.inCluster(projectId, s.clusterId, s.namespace, s.name), 'podLogs', pod, previous] as const,
};

/** Whether a query reads a pod's logs (a deploy or an undeploy may have taken that pod away). */
export const isPodLogsKey = (queryKey: readonly unknown[]) => queryKey.includes('podLogs');

const base = (projectId: string) => `/ms-kube/projects/${projectId}`;
export const microservicesPath = (projectId: string) => `${base(projectId)}/microservices`;
export const microservicePath = (projectId: string, name: string) => `${microservicesPath(projectId)}/${encodeURIComponent(name)}`;
export const clusterServicesPath = (projectId: string, clusterId: string) => `${base(projectId)}/kubernetes/${encodeURIComponent(clusterId)}`;
/** …/kubernetes/:clusterId/namespaces/:namespace/microservices/:name — deploy, undeploy, status, pods, events, logs, spec. */
export const serviceInClusterPath = (projectId: string, clusterId: string, namespace: string, name: string) =>
  `${clusterServicesPath(projectId, clusterId)}/namespaces/${encodeURIComponent(namespace)}/microservices/${encodeURIComponent(name)}`;

/** Where a service lives in the web. */
export const servicesRoute = '/kubernetes/services';
/** The services list's Public Services tab: /kubernetes/services?tab=public (My Services has no tab parameter). */
export const PUBLIC_TAB = 'public';
export const publicServicesRoute = `${servicesRoute}?tab=${PUBLIC_TAB}`;
export const serviceRoute = (name: string) => `${servicesRoute}/${encodeURIComponent(name)}`;
export const serviceInClusterRoute = (clusterId: string, namespace: string, name: string) =>
  `/kubernetes/clusters/${encodeURIComponent(clusterId)}/namespaces/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/details`;
