import type { RouteObject } from 'react-router';
import { formPage, lazyPage } from '../../ui/lazy-page';

/** The Cost Explorer and its reports (spec §2.1, §2.10); a report is edited at /reports/edit?id=…. */
export const costExplorerRoutes: RouteObject[] = [
  { path: '/tools/cost-explorer', ...lazyPage(() => import('./pages/CostExplorerPage')) },
  { path: '/tools/cost-explorer/reports/create', ...formPage('/tools/cost-explorer', () => import('./pages/ReportFormPage')) },
  { path: '/tools/cost-explorer/reports/edit', ...formPage('/tools/cost-explorer', () => import('./pages/ReportFormPage')) },
];
