import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';

const page = lazyPage;

/** The Infrastructure Builder's environment routes (spec §2), lazy pages. */
export const environmentRoutes: RouteObject[] = [
  { path: '/environments', ...page(() => import('./pages/EnvironmentsPage')) },
  { path: '/environments/create', ...page(() => import('./pages/EnvironmentFormPage')) },
  { path: '/environments/:stageId', ...page(() => import('./pages/EnvironmentPage')) },
  { path: '/environments/:stageId/edit', ...page(() => import('./pages/EnvironmentFormPage')) },
  { path: '/environments/:stageId/replicate', ...page(() => import('./pages/EnvironmentFormPage')) },
  { path: '/environments/:stageId/plan', ...page(() => import('./pages/PlanPage')) },
  { path: '/environments/:stageId/details', ...page(() => import('./pages/DeploymentDetailsPage')) },
  { path: '/environments/:stageId/deployment-insights', ...page(() => import('./pages/DeploymentInsightsPage')) },
  { path: '/environments/:stageId/deployments', ...page(() => import('./pages/DeploymentInsightsPage')) },
  { path: '/environments/:stageId/depolyment-history', ...page(() => import('./pages/DeploymentInsightsPage')) },
  { path: '/depolyment-history', ...page(() => import('./pages/DeploymentInsightsPage')) },
];
