import { Menu, Text } from '@mantine/core';
import { IconCookie, IconCreditCard, IconFileText, IconHelp, IconLogout, IconShieldLock, IconUserCircle } from '@tabler/icons-react';
import type { ReactElement } from 'react';
import { Link } from 'react-router';
import { useProfile } from '../../api/session';
import { signOut } from '../../api/logout';
import { EXTERNAL_LINKS } from '../../ui/links';

/** The user menu itself (spec §2.6), open from the start: UserMenu mounts it at the first click on its button. */
export default function UserMenuDropdown({ trigger }: { trigger: ReactElement }) {
  const profile = useProfile();
  const external = { component: 'a' as const, target: '_blank', rel: 'noreferrer' };

  return (
    <Menu position="right-end" offset={12} width={250} shadow="lg" withArrow defaultOpened>
      <Menu.Target>{trigger}</Menu.Target>
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
