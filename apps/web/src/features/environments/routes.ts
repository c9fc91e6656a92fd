import type { RouteObject } from 'react-router';
import { formPage, lazyPage } from '../../ui/lazy-page';

/** The Infrastructure Builder's environment routes (spec §2), lazy pages. */
export const environmentRoutes: RouteObject[] = [
  { path: '/environments', ...lazyPage(() => import('./pages/EnvironmentsPage')) },
  { path: '/environments/create', ...formPage('/environments', () => import('./pages/EnvironmentFormPage')) },
  { path: '/environments/:stageId', ...lazyPage(() => import('./pages/EnvironmentPage')) },
  { path: '/environments/:stageId/edit', ...formPage('/environments', () => import('./pages/EnvironmentFormPage')) },
  { path: '/environments/:stageId/replicate', ...formPage('/environments', () => import('./pages/EnvironmentFormPage')) },
  { path: '/environments/:stageId/plan', ...lazyPage(() => import('./pages/PlanPage')) },
  { path: '/environments/:stageId/details', ...lazyPage(() => import('./pages/DeploymentDetailsPage')) },
  { path: '/environments/:stageId/deployment-insights', ...lazyPage(() => import('./pages/DeploymentInsightsPage')) },
  { path: '/environments/:stageId/deployments', ...lazyPage(() => import('./pages/DeploymentInsightsPage')) },
  { path: '/environments/:stageId/depolyment-history', ...lazyPage(() => import('./pages/DeploymentInsightsPage')) },
  { path: '/depolyment-history', ...lazyPage(() => import('./pages/DeploymentInsightsPage')) },
];
