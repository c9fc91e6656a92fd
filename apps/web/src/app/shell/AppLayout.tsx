import { AppShell, Box } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate, useNavigationType } from 'react-router';
import { currentProjectOf, session, useCurrentProject } from '../../api/session';
import { useRealtimeProject } from '../../api/realtime';
import { ProjectFormModal, useProjects } from '../../features/projects';
import { PageLoader } from '../guards';
import { useNotificationUpdates } from './notifications';
import { openProject, ProjectRail } from './ProjectRail';
import classes from './AppLayout.module.css';

/** Loaded when first opened: the drawer (and its time formatting) is not needed to show a page. */
const NotificationsDrawer = lazy(() => import('./NotificationsDrawer').then((m) => ({ default: m.NotificationsDrawer })));

/** The side menu is not on /projects, the page most visits start on: it loads when a page shows it. */
const SideMenu = lazy(() => import('./SideMenu').then((m) => ({ default: m.SideMenu })));
/** The same over the page, in a narrow window only. */
const SideMenuDrawer = lazy(() => import('./SideMenuDrawer').then((m) => ({ default: m.SideMenuDrawer })));

/** Pages without the side menu (spec §2.1); they do not need a current project either. */
const MENU_HIDDEN = ['/projects', '/account', '/page-not-found', '/admin'];
export const isMenuHidden = (pathname: string) => MENU_HIDDEN.some((p) => pathname === p || pathname.startsWith(`${p}/`));

const RAIL = 72;
const MENU = 264;
/**
 * Narrower than this, the side menu is not kept beside the page: it opens over it from the rail's menu button. Beside
 * the page it left 464 px of an 800 px window, and at 1024 px a page's side column (the pipeline's steps catalogue)
 * was cut to 190 px.
 */
export const MENU_BESIDE_MIN_WIDTH = 1100;
const NARROW = `(max-width: ${MENU_BESIDE_MIN_WIDTH - 0.02}px)`;

/**
 * A page opened by a link or after a form (not Back or Forward, where the browser keeps its place) starts at its top:
 * the window kept the scroll of the page before, so a component or pipeline created at the bottom of its long form
 * opened scrolled down to its last tables. A change of the query alone (a tab, a chosen step or version) keeps it.
 */
function useNewPageAtTop(pathname: string) {
  const navigationType = useNavigationType();
  useLayoutEffect(() => {
    if (navigationType !== 'POP') window.scrollTo(0, 0);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new path moves the window, not how it was reached
  }, [pathname]);
}

/** The signed-in shell: project rail, side menu, notifications drawer, and the current project. */
export default function AppLayout() {
  const { pathname } = useLocation();
  useNewPageAtTop(pathname);
  const showMenu = !isMenuHidden(pathname);
  const narrow = useMediaQuery(NARROW, window.matchMedia(NARROW).matches, { getInitialValueInEffect: false });
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    // a page chosen in the menu (or anywhere) closes the menu over it
    setMenuPath(pathname);
    setMenuOpen(false);
  }
  const menuBeside = showMenu && !narrow;
  const projects = useProjects();
  const current = useCurrentProject();
  const [createOpen, createModal] = useDisclosure(false);
  const [notificationsOpen, notificationsDrawer] = useDisclosure(false);
  const [notificationsUsed, setNotificationsUsed] = useState(false);
  if (notificationsOpen && !notificationsUsed) setNotificationsUsed(true);
  useRealtimeProject(current?.id);
  useNotificationUpdates(current?.id);

  // Keep the stored current project in step with the list: renamed, permission changed, gone, or none chosen yet.
  useEffect(() => {
    const list = projects.data;
    // Only a settled list counts: right after a create the new project is not in the cached one yet.
    if (!list || projects.isFetching) return;
    const match = current && list.find((p) => p.id === current.id);
    if (match) {
      if (match.name !== current.name || match.permission !== current.permission || match.description !== current.description) {
        session.setProject(currentProjectOf(match));
      }
      return;
    }
    const first = list[0];
    session.setProject(first ? currentProjectOf(first) : null);
  }, [projects.data, projects.isFetching, current]);

  // A project made with the rail's New project opens, as choosing it would: the rail shows only the first four, and the
  // page the user was on belongs to the project before. On /projects its card shows where it is.
  const navigate = useNavigate();
  const openCreated = (id: string, name: string) => {
    if (pathname !== '/projects') openProject({ id, name, permission: 'owner' }, pathname, navigate);
  };

  let content = <Outlet />;
  if (showMenu && !current) {
    // Project pages need a project: wait for the list, and with no project at all go to /projects.
    content = projects.data && projects.data.length === 0 ? <Navigate to="/projects" replace /> : <PageLoader />;
  }

  return (
    <AppShell navbar={{ width: menuBeside ? RAIL + MENU : RAIL, breakpoint: 0 }} padding={0}>
      <AppShell.Navbar withBorder={false} className={classes.navbar}>
        <ProjectRail
          projects={projects.data ?? []}
          loading={projects.isPending}
          currentId={current?.id}
          onCreate={createModal.open}
          onNotifications={notificationsDrawer.open}
          onMenu={showMenu && narrow ? () => setMenuOpen(true) : undefined}
        />
        {menuBeside && (
          <Suspense fallback={null}>
            <SideMenu project={current} />
          </Suspense>
        )}
      </AppShell.Navbar>
      {showMenu && narrow && (
        <Suspense fallback={null}>
          <SideMenuDrawer opened={menuOpen} onClose={() => setMenuOpen(false)} project={current} width={MENU} />
        </Suspense>
      )}
      <AppShell.Main className={classes.main}>
        <Box className={classes.content}>{content}</Box>
      </AppShell.Main>
      <ProjectFormModal opened={createOpen} onClose={createModal.close} onCreated={openCreated} />
      {notificationsUsed && (
        <Suspense fallback={null}>
          <NotificationsDrawer opened={notificationsOpen} onClose={notificationsDrawer.close} />
        </Suspense>
      )}
    </AppShell>
  );
}
