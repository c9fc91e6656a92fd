import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';

/** /account (spec §2.4), a lazy page. */
export const accountRoutes: RouteObject[] = [{ path: '/account', ...lazyPage(() => import('./MyAccountPage')) }];
