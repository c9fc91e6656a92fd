import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconCookie, IconCreditCard, IconFileText, IconHelp, IconLogout, IconShieldLock, IconUserCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useProfile } from '../../api/session';
import { signOut } from '../../api/logout';
import { EXTERNAL_LINKS } from '../../ui/links';

/** The user menu (spec §2.6): first name, last name, e-mail; Help and legal links; Log Out. */
export function UserMenu() {
  const profile = useProfile();
  const initials = `${profile?.firstName?.[0] ?? ''}${profile?.lastName?.[0] ?? ''}`.toUpperCase() || (profile?.email?.[0] ?? '?').toUpperCase();
  const external = { component: 'a' as const, target: '_blank', rel: 'noreferrer' };

  return (
    <Menu position="right-end" offset={12} width={250} shadow="lg" withArrow>
      <Menu.Target>
        <UnstyledButton aria-label="User menu" data-testid="user-menu">
          <Avatar radius="xl" size={38} color="indigo" variant="filled">
            {initials}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <div style={{ padding: '8px 12px' }}>
          <Text fw={600} size="sm" data-testid="user-menu-name">
            <span>{profile?.firstName}</span> <span>{profile?.lastName}</span>
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {profile?.email}
          </Text>
        </div>
        <Menu.Divider />
        <Menu.Item component={Link} to="/account" leftSection={<IconUserCircle size={16} />}>
          My Account
        </Menu.Item>
        {profile?.isInstanceAdmin && (
          <Menu.Item component={Link} to="/admin/plans" leftSection={<IconCreditCard size={16} />}>
            Project plans
          </Menu.Item>
        )}
        <Menu.Item {...external} href={EXTERNAL_LINKS.help} leftSection={<IconHelp size={16} />}>
          Help
        </Menu.Item>
        <Menu.Item {...external} href={EXTERNAL_LINKS.privacy} leftSection={<IconShieldLock size={16} />}>
          Privacy Policy
        </Menu.Item>
        <Menu.Item {...external} href={EXTERNAL_LINKS.terms} leftSection={<IconFileText size={16} />}>
          Terms of Service
        </Menu.Item>
        <Menu.Item {...external} href={EXTERNAL_LINKS.cookies} leftSection={<IconCookie size={16} />}>
          Cookie Policy
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void signOut()}>
          Log Out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
