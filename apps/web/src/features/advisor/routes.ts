import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';

/** The Waste Advisor route (spec §2.1, §2.10). */
export const advisorRoutes: RouteObject[] = [{ path: '/tools/advisor', ...lazyPage(() => import('./pages/AdvisorPage')) }];
