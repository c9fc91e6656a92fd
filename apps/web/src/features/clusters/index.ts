/**
 * The clusters feature's public surface: its routes, and the cluster reads other areas share (the
 * overview and the service deploy pick a cluster and a namespace with these).
 */
export { clusterRoutes } from './routes';
export { useClusters, listClusters } from './api/list-clusters';
export { useClusterStatus, getClusterStatus } from './api/get-cluster-status';
export { useNamespaces, listNamespaces } from './api/list-namespaces';
export { clusterKeys } from './api/keys';
