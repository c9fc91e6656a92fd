import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';

/** /projects (spec §2.5), a lazy page. */
export const projectRoutes: RouteObject[] = [{ path: '/projects', ...lazyPage(() => import('./ProjectsPage')) }];
