import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';

/** /overview, a lazy page. */
export const overviewRoutes: RouteObject[] = [{ path: '/overview', ...lazyPage(() => import('./OverviewPage')) }];
