import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { CatchAll, GuestOnly, PageLoader, RequireAuth } from './guards';
import { placeholderRoutes } from './placeholder-routes';
import { pipelineRoutes } from '../features/pipelines/routes';
import { componentRoutes } from '../features/components/routes';
import { environmentRoutes } from '../features/environments/routes';
import { lazyPage } from '../ui/lazy-page';

const page = lazyPage;

/** The route table of spec §2.1. */
export const routes: RouteObject[] = [
  {
    hydrateFallbackElement: <PageLoader />,
    children: [
      // Signed-out routes (exact); a logged-in user is sent to /projects.
      {
        element: <GuestOnly />,
        children: [
          { path: '/login', ...page(() => import('../features/auth/pages/LoginPage')) },
          { path: '/register', ...page(() => import('../features/auth/pages/RegisterPage')) },
          { path: '/appsumo', ...page(() => import('../features/auth/pages/AppSumoPage')) },
          { path: '/register/aws', ...page(() => import('../features/auth/pages/RegisterAwsPage')) },
          { path: '/account/verify/:email/:code', ...page(() => import('../features/auth/pages/VerifyEmailPage')) },
          { path: '/account/reset/:email/:code', ...page(() => import('../features/auth/pages/ResetPasswordPage')) },
          { path: '/account/reset-confirmation/:email', ...page(() => import('../features/auth/pages/ResetConfirmationPage')) },
        ],
      },
      // Both signed in and signed out.
      { path: '/account/set-password/:email/:token', ...page(() => import('../features/auth/pages/SetPasswordPage')) },
      { path: '/outbox', ...page(() => import('../features/outbox/OutboxPage')) },

      // Signed-in routes, inside the shell; signed out they show login.
      {
        element: <RequireAuth />,
        children: [
          {
            ...page(() => import('./shell/AppLayout')),
            children: [
              { path: '/', element: <Navigate to="/overview" replace /> },
              { path: '/overview', ...page(() => import('../features/overview/OverviewPage')) },
              { path: '/projects', ...page(() => import('../features/projects/ProjectsPage')) },
              { path: '/account', ...page(() => import('../features/account/MyAccountPage')) },
              { path: '/page-not-found', ...page(() => import('../features/not-found/NotFoundPage')) },
              { path: '/settings', ...page(() => import('../features/settings/SettingsPage')) },
              ...pipelineRoutes,
              ...componentRoutes,
              ...environmentRoutes,
              ...placeholderRoutes,
            ],
          },
        ],
      },
      { path: '*', element: <CatchAll /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
