import { ActionIcon, Avatar, Divider, Indicator, Skeleton, Stack, Tooltip, UnstyledButton } from '@mantine/core';
import { IconBell, IconLayoutGrid, IconMenu2, IconPlus } from '@tabler/icons-react';
import { Link, useLocation, useNavigate, type NavigateFunction } from 'react-router';
import type { Project } from '@gantry/contracts';
import { currentProjectOf, session, type CurrentProject } from '../../api/session';
import { Logo } from '../../ui/Logo';
import { UserMenu } from './UserMenu';
import { useUnreadCount } from './notifications';
import classes from './ProjectRail.module.css';

const SIDEBAR_PROJECTS = 4;

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('') || '?';

export interface ProjectRailProps {
  projects: Project[];
  loading: boolean;
  currentId?: string;
  onCreate: () => void;
  onNotifications: () => void;
  /** In a narrow window, where the side menu is not beside the page: opens it. */
  onMenu?: () => void;
}

/** Makes `project` the current one and opens its overview (spec §2.6), reloading it when already there. */
export function openProject(project: CurrentProject, pathname: string, navigate: NavigateFunction) {
  session.setProject(project);
  if (pathname === '/overview') window.location.reload();
  else navigate('/overview', { state: { projectId: project.id } });
}

/** The narrow dark rail (spec §2.6): the first 4 projects, create, projects list, notifications, user menu. */
export function ProjectRail({ projects, loading, currentId, onCreate, onNotifications, onMenu }: ProjectRailProps) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const unread = useUnreadCount();

  const select = (p: Project) => openProject(currentProjectOf(p), pathname, navigate);

  return (
    <nav className={classes.rail} aria-label="Projects">
      <UnstyledButton component={Link} to="/projects" className={classes.logo} aria-label="Gantry home">
        <Logo size={34} />
      </UnstyledButton>
      {onMenu && (
        <Tooltip label="Menu" position="right" withArrow>
          <ActionIcon size={40} radius="md" variant="subtle" className={classes.icon} mt="sm" onClick={onMenu} aria-label="Main menu">
            <IconMenu2 size={20} />
          </ActionIcon>
        </Tooltip>
      )}
      <Divider color="dark.5" w={36} my="sm" />
      <Stack gap={10} align="center" className={classes.projects}>
        {loading
          ? [0, 1, 2].map((i) => <Skeleton key={i} height={40} width={40} radius="md" />)
          : projects.slice(0, SIDEBAR_PROJECTS).map((p) => (
              <Tooltip key={p.id} label={p.name} position="right" withArrow>
                <UnstyledButton
                  onClick={() => select(p)}
                  className={classes.project}
                  data-active={p.id === currentId || undefined}
                  aria-label={`Switch to project ${p.name}`}
                  data-testid="sidebar-project"
                >
                  <Avatar radius="md" size={40} color={p.id === currentId ? 'indigo' : 'gray'} variant={p.id === currentId ? 'filled' : 'light'}>
                    {initials(p.name)}
                  </Avatar>
                </UnstyledButton>
              </Tooltip>
            ))}
        <Tooltip label="New project" position="right" withArrow>
          <ActionIcon size={40} radius="md" variant="default" className={classes.add} onClick={onCreate} aria-label="New project">
            <IconPlus size={18} />
          </ActionIcon>
        </Tooltip>
      </Stack>

      <Stack gap={8} align="center" mt="auto" pb="md">
        <Tooltip label="All projects" position="right" withArrow>
          <ActionIcon
            size={40}
            radius="md"
            variant="subtle"
            className={classes.icon}
            component={Link}
            to="/projects"
            aria-label="All projects"
            data-active={pathname === '/projects' || undefined}
          >
            <IconLayoutGrid size={20} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Notifications" position="right" withArrow>
          <Indicator label={unread} size={16} color="red" offset={6} disabled={unread === 0} data-testid="notifications-count" data-count={unread}>
            <ActionIcon size={40} radius="md" variant="subtle" className={classes.icon} onClick={onNotifications} aria-label="Notifications">
              <IconBell size={20} />
            </ActionIcon>
          </Indicator>
        </Tooltip>
        <UserMenu />
      </Stack>
    </nav>
  );
}
