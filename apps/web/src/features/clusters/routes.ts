import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';

/**
 * The clusters routes (spec delivery §2 Clusters), lazy pages inside the signed-in shell. Connect and
 * Edit are a modal over the list (the spec shows no route for them).
 */
export const clusterRoutes: RouteObject[] = [
  { path: '/kubernetes/clusters', ...lazyPage(() => import('./pages/ClustersPage')) },
  { path: '/kubernetes/clusters/:clusterId', ...lazyPage(() => import('./pages/ClusterDashboardPage')) },
];
