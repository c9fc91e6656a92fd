import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { CatchAll, GuestOnly, PageLoader, RequireAuth } from './guards';
import { accountRoutes } from '../features/account/routes';
import { advisorRoutes } from '../features/advisor/routes';
import { adminPlanRoutes } from '../features/admin-plans/routes';
import { guestRoutes, setPasswordRoutes } from '../features/auth/routes';
// Each feature's routes file (lazy pages only), not its index: an index re-exports components and hooks other
// features use, which would otherwise be loaded with the first page (issue 14: initial JavaScript).
import { clusterRoutes } from '../features/clusters/routes';
import { componentRoutes } from '../features/components/routes';
import { costExplorerRoutes } from '../features/cost-explorer/routes';
import { environmentRoutes } from '../features/environments/routes';
import { notFoundRoutes } from '../features/not-found/routes';
import { outboxRoutes } from '../features/outbox/routes';
import { overviewRoutes } from '../features/overview/routes';
import { pipelineRoutes } from '../features/pipelines/routes';
import { projectRoutes } from '../features/projects/routes';
import { registryRoutes } from '../features/registries/routes';
import { scheduleRoutes } from '../features/schedules/routes';
import { serviceRoutes } from '../features/services/routes';
import { settingsRoutes } from '../features/settings/routes';
import { followRoute } from '../api/toast';
import { lazyPage } from '../ui/lazy-page';

/** The route table of spec §2.1. */
export const routes: RouteObject[] = [
  {
    hydrateFallbackElement: <PageLoader />,
    children: [
      // Signed-out routes (exact); a logged-in user is sent to /projects.
      {
        element: <GuestOnly />,
        children: guestRoutes,
      },
      // Both signed in and signed out.
      ...setPasswordRoutes,
      ...outboxRoutes,

      // Signed-in routes, inside the shell; signed out they show login.
      {
        element: <RequireAuth />,
        children: [
          {
            ...lazyPage(() => import('./shell/AppLayout')),
            children: [
              { path: '/', element: <Navigate to="/overview" replace /> },
              ...overviewRoutes,
              ...projectRoutes,
              ...accountRoutes,
              ...notFoundRoutes,
              ...settingsRoutes,
              ...adminPlanRoutes,
              ...pipelineRoutes,
              ...componentRoutes,
              ...environmentRoutes,
              ...registryRoutes,
              ...clusterRoutes,
              ...serviceRoutes,
              ...costExplorerRoutes,
              ...scheduleRoutes,
              ...advisorRoutes,
            ],
          },
        ],
      },
      { path: '*', element: <CatchAll /> },
    ],
  },
];

export const router = createBrowserRouter(routes);

// A page's success toasts close when the user leaves it (toast.ts): told the path a navigation goes to as it starts.
followRoute(router.state.location.pathname);
router.subscribe((state) => followRoute(state.navigation.location?.pathname ?? state.location.pathname));
