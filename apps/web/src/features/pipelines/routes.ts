import type { RouteObject } from 'react-router';
import { formPage, lazyPage } from '../../ui/lazy-page';

/**
 * The Pipeline Manager routes (spec delivery §2), lazy pages; mount them inside the signed-in shell
 * in place of the placeholders:
 * /pipelines, /pipelines/create, /pipelines/:pipelineId/edit, /pipelines/:pipelineId/details (?tab=spec|builds),
 * /pipelines/:pipelineId/builds (→ latest build, else the builds tab), /pipelines/:pipelineId/builds/:buildId (?step=).
 */
export const pipelineRoutes: RouteObject[] = [
  { path: '/pipelines', ...lazyPage(() => import('./pages/PipelinesPage')) },
  { path: '/pipelines/create', ...formPage('/pipelines', () => import('./pages/PipelineFormPage')) },
  { path: '/pipelines/:pipelineId/edit', ...formPage('/pipelines', () => import('./pages/PipelineFormPage')) },
  { path: '/pipelines/:pipelineId/details', ...lazyPage(() => import('./pages/PipelineDetailsPage')) },
  { path: '/pipelines/:pipelineId/builds', ...lazyPage(() => import('./pages/BuildRedirectPage')) },
  { path: '/pipelines/:pipelineId/builds/:buildId', ...lazyPage(() => import('./pages/BuildPage')) },
];
