import type { RouteObject } from 'react-router';
import { formPage, lazyPage } from '../../ui/lazy-page';

/**
 * The Kubernetes services routes (spec delivery §2), lazy pages inside the signed-in shell: the list, create,
 * edit, details, and a service in a cluster's namespace (logs, events, insights, history).
 */
export const serviceRoutes: RouteObject[] = [
  { path: '/kubernetes/services', ...lazyPage(() => import('./pages/ServicesPage')) },
  { path: '/kubernetes/services/create', ...formPage('/kubernetes/services', () => import('./pages/ServiceFormPage')) },
  { path: '/kubernetes/services/:microserviceName', ...lazyPage(() => import('./pages/ServiceDetailsPage')) },
  { path: '/kubernetes/services/:microserviceName/edit', ...formPage('/kubernetes/services', () => import('./pages/ServiceFormPage')) },
  {
    path: '/kubernetes/clusters/:clusterId/namespaces/:namespace/:microserviceName/details',
    ...lazyPage(() => import('./pages/ClusterServicePage')),
  },
];
