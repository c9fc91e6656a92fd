import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';

/** /admin/plans: the instance admin gives projects their plans. */
export const adminPlanRoutes: RouteObject[] = [{ path: '/admin/plans', ...lazyPage(() => import('./AdminPlansPage')) }];
