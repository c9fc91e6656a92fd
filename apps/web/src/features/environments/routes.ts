import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';

/** The Infrastructure Builder's environment routes (spec §2), lazy pages. */
export const environmentRoutes: RouteObject[] = [
  { path: '/environments', ...lazyPage(() => import('./pages/EnvironmentsPage')) },
  { path: '/environments/create', ...lazyPage(() => import('./pages/EnvironmentFormPage')) },
  { path: '/environments/:stageId', ...lazyPage(() => import('./pages/EnvironmentPage')) },
  { path: '/environments/:stageId/edit', ...lazyPage(() => import('./pages/EnvironmentFormPage')) },
  { path: '/environments/:stageId/replicate', ...lazyPage(() => import('./pages/EnvironmentFormPage')) },
  { path: '/environments/:stageId/plan', ...lazyPage(() => import('./pages/PlanPage')) },
  { path: '/environments/:stageId/details', ...lazyPage(() => import('./pages/DeploymentDetailsPage')) },
  { path: '/environments/:stageId/deployment-insights', ...lazyPage(() => import('./pages/DeploymentInsightsPage')) },
  { path: '/environments/:stageId/deployments', ...lazyPage(() => import('./pages/DeploymentInsightsPage')) },
  { path: '/environments/:stageId/depolyment-history', ...lazyPage(() => import('./pages/DeploymentInsightsPage')) },
  { path: '/depolyment-history', ...lazyPage(() => import('./pages/DeploymentInsightsPage')) },
];
