/**
 * The clusters feature's public surface: the cluster reads other areas share (the overview and the service
 * deploy pick a cluster and a namespace with these). Its routes are imported by the router from ./routes: the
 * dashboard shows services (features/services), which reads clusters through this index — so this index never
 * reaches the pages, and the two features import each other without a cycle.
 */
export { useClusters, listClusters } from './api/list-clusters';
export { useCluster } from './api/get-cluster';
export { useClusterStatus, getClusterStatus } from './api/get-cluster-status';
export { useNamespaces, listNamespaces } from './api/list-namespaces';
export { clusterKeys } from './api/keys';
export { podTone, TONE_COLOR, round2 } from './lib/cluster-status';
