import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Navigate, Outlet } from 'react-router';
import { useIsLoggedIn } from '../api/session';
import { loadLoginPage } from '../features/auth';

const LoginPage = lazy(loadLoginPage);

export function PageLoader() {
  return (
    <Center mih="60vh">
      <Loader />
    </Center>
  );
}

/** The login page in place of a page that needs a session (spec §2.1: any other signed-out path shows login). */
export function LoginInPlace() {
  return (
    <Suspense fallback={<PageLoader />}>
      <LoginPage />
    </Suspense>
  );
}

/** Signed-out pages: a logged-in user is sent to /projects. */
export function GuestOnly() {
  return useIsLoggedIn() ? <Navigate to="/projects" replace /> : <Outlet />;
}

/** Signed-in pages: without a session the login page shows at the same address. */
export function RequireAuth() {
  return useIsLoggedIn() ? <Outlet /> : <LoginInPlace />;
}

/** Unknown paths: signed in → /projects, signed out → login. */
export function CatchAll() {
  return useIsLoggedIn() ? <Navigate to="/projects" replace /> : <LoginInPlace />;
}
