import type { RouteObject } from 'react-router';
import { ComingSoonPage } from '../ui/ComingSoon';

/**
 * Pages of the areas that arrive in later releases (spec §2.1): every route exists and
 * says so with its page title, so menus and links never lead nowhere.
 */
const placeholders: [path: string, title: string][] = [
  ['/tools/cost-explorer', 'Cost Explorer'],
  ['/tools/cost-explorer/reports/create', 'Create Report'],
  ['/tools/cost-explorer/reports/edit', 'Edit Report'],
  ['/tools/schedules', 'Saving Schedules'],
  ['/tools/schedules/create', 'Create Schedule'],
  ['/tools/schedules/:scheduleId/edit', 'Edit Schedule'],
  ['/tools/advisor', 'Waste Advisor'],
];

export const placeholderRoutes: RouteObject[] = placeholders.map(([path, title]) => ({
  path,
  element: <ComingSoonPage title={title} />,
}));
