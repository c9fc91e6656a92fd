import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';

/** /page-not-found (spec §2.4), a lazy page. */
export const notFoundRoutes: RouteObject[] = [{ path: '/page-not-found', ...lazyPage(() => import('./NotFoundPage')) }];
