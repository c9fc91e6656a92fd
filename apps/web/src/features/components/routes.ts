import type { RouteObject } from 'react-router';
import { formPage, lazyPage } from '../../ui/lazy-page';

/**
 * The components routes (spec infrastructure-builder §2), lazy pages; mount them inside the
 * signed-in shell in place of the placeholders:
 * /components (?tab=public), /components/create, /components/:componentId (?buildId=), /components/:componentId/edit.
 */
export const componentRoutes: RouteObject[] = [
  { path: '/components', ...lazyPage(() => import('./pages/ComponentsPage')) },
  { path: '/components/create', ...formPage('/components', () => import('./pages/ComponentFormPage')) },
  { path: '/components/:componentId', ...lazyPage(() => import('./pages/ComponentDetailsPage')) },
  { path: '/components/:componentId/edit', ...formPage('/components', () => import('./pages/ComponentFormPage')) },
];
