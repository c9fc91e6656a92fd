import type { RouteObject } from 'react-router';
import { formPage, lazyPage } from '../../ui/lazy-page';

/** The saving schedules routes (spec §2.1, §2.10), lazy pages inside the signed-in shell. */
export const scheduleRoutes: RouteObject[] = [
  { path: '/tools/schedules', ...lazyPage(() => import('./pages/SchedulesPage')) },
  { path: '/tools/schedules/create', ...formPage('/tools/schedules', () => import('./pages/ScheduleFormPage')) },
  { path: '/tools/schedules/:scheduleId/edit', ...formPage('/tools/schedules', () => import('./pages/ScheduleFormPage')) },
];
