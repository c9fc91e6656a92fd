import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';

export const loadLoginPage = () => import('./pages/LoginPage');

/** Signed-out pages (exact paths); the router sends a logged-in user to /projects. */
export const guestRoutes: RouteObject[] = [
  { path: '/login', ...lazyPage(loadLoginPage) },
  { path: '/register', ...lazyPage(() => import('./pages/RegisterPage')) },
  { path: '/appsumo', ...lazyPage(() => import('./pages/AppSumoPage')) },
  { path: '/register/aws', ...lazyPage(() => import('./pages/RegisterAwsPage')) },
  { path: '/account/verify/:email/:code', ...lazyPage(() => import('./pages/VerifyEmailPage')) },
  { path: '/account/reset/:email/:code', ...lazyPage(() => import('./pages/ResetPasswordPage')) },
  { path: '/account/reset-confirmation/:email', ...lazyPage(() => import('./pages/ResetConfirmationPage')) },
];

/** Open both signed in and signed out: an invited user sets a password from the mail. */
export const setPasswordRoutes: RouteObject[] = [{ path: '/account/set-password/:email/:token', ...lazyPage(() => import('./pages/SetPasswordPage')) }];
