import { NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { IconBuildingFactory2, IconCloudDollar, IconGitMerge, IconLayoutDashboard, IconSettings, IconSteeringWheel } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { Link, useLocation } from 'react-router';
import type { CurrentProject } from '../../api/session';
import { useCostToolsVisible } from '../../features/schedules';
import classes from './SideMenu.module.css';

interface Entry {
  label: string;
  to?: string;
  icon: ComponentType<{ size?: number; stroke?: number }>;
  children?: { label: string; to: string }[];
}

/** The side menu entries of spec §2.1 ("Infrastructure Builder" spelt right here; only the environments empty state keeps the spec's spelling). */
export const MENU: Entry[] = [
  { label: 'Overview', to: '/overview', icon: IconLayoutDashboard },
  {
    label: 'Infrastructure Builder',
    icon: IconBuildingFactory2,
    children: [
      { label: 'Components', to: '/components' },
      { label: 'Environments', to: '/environments' },
    ],
  },
  { label: 'Pipelines', to: '/pipelines', icon: IconGitMerge },
  {
    label: 'Kubernetes',
    icon: IconSteeringWheel,
    children: [
      { label: 'Clusters', to: '/kubernetes/clusters' },
      { label: 'Services', to: '/kubernetes/services' },
      { label: 'Docker Registries', to: '/kubernetes/docker-registries' },
    ],
  },
  {
    label: 'Cloud Waste Manager',
    icon: IconCloudDollar,
    children: [
      { label: 'Cost Explorer', to: '/tools/cost-explorer' },
      { label: 'Saving Schedules', to: '/tools/schedules' },
      { label: 'Waste Advisor', to: '/tools/advisor' },
    ],
  },
];

/** Spec §2.1: the Cloud Waste Manager section only when the schedules list does not answer 402. */
export const visibleMenu = (costTools: boolean) => (costTools ? MENU : MENU.filter((e) => e.label !== 'Cloud Waste Manager'));

const isActive = (pathname: string, to: string) => {
  const path = to.split('?')[0]!;
  return pathname === path || pathname.startsWith(`${path}/`);
};

/** The project's side menu: the current project on top, the areas, Settings at the bottom. */
export function SideMenu({ project }: { project: CurrentProject | null }) {
  const { pathname } = useLocation();
  const menu = visibleMenu(useCostToolsVisible(project?.id));
  return (
    <nav className={classes.menu} aria-label="Main menu">
      <div className={classes.header}>
        <Text size="xs" c="dimmed" fw={600} tt="uppercase">
          Project
        </Text>
        <Text fw={700} truncate data-testid="current-project-name">
          {project?.name ?? '—'}
        </Text>
      </div>
      <ScrollArea className={classes.scroll} type="hover">
        <Stack gap={2} p="sm">
          {menu.map((entry) =>
            entry.children ? (
              <NavLink
                key={entry.label}
                label={entry.label}
                leftSection={<entry.icon size={18} stroke={1.6} />}
                defaultOpened
                childrenOffset={28}
                className={classes.link}
                active={entry.children.some((c) => isActive(pathname, c.to))}
                variant="subtle"
              >
                {entry.children.map((c) => (
                  <NavLink key={c.to} component={Link} to={c.to} label={c.label} active={isActive(pathname, c.to)} className={classes.link} variant="light" />
                ))}
              </NavLink>
            ) : (
              <NavLink
                key={entry.label}
                component={Link}
                to={entry.to!}
                label={entry.label}
                leftSection={<entry.icon size={18} stroke={1.6} />}
                active={isActive(pathname, entry.to!)}
                className={classes.link}
                variant="light"
              />
            ),
          )}
        </Stack>
      </ScrollArea>
      <div className={classes.footer}>
        <NavLink
          component={Link}
          to="/settings?tab=accounts"
          label="Settings"
          leftSection={<IconSettings size={18} stroke={1.6} />}
          active={isActive(pathname, '/settings')}
          className={classes.link}
          variant="light"
        />
      </div>
    </nav>
  );
}
