import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { CatchAll, GuestOnly, PageLoader, RequireAuth } from './guards';
import { accountRoutes } from '../features/account';
import { advisorRoutes } from '../features/advisor';
import { adminPlanRoutes } from '../features/admin-plans';
import { guestRoutes, setPasswordRoutes } from '../features/auth';
// The clusters routes come from their file: the clusters index is what other features import (services reads clusters).
import { clusterRoutes } from '../features/clusters/routes';
import { componentRoutes } from '../features/components';
import { costExplorerRoutes } from '../features/cost-explorer';
import { environmentRoutes } from '../features/environments';
import { notFoundRoutes } from '../features/not-found';
import { outboxRoutes } from '../features/outbox';
import { overviewRoutes } from '../features/overview';
import { pipelineRoutes } from '../features/pipelines';
import { projectRoutes } from '../features/projects';
import { registryRoutes } from '../features/registries';
import { scheduleRoutes } from '../features/schedules';
import { serviceRoutes } from '../features/services';
import { settingsRoutes } from '../features/settings';
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
