import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';

/** /settings?tab=… (spec §2.9), a lazy page. */
export const settingsRoutes: RouteObject[] = [{ path: '/settings', ...lazyPage(() => import('./SettingsPage')) }];
