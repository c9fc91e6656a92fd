import { Avatar, UnstyledButton } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useProfile } from '../../api/session';

const loadDropdown = () => import('./UserMenuDropdown');
/** The menu (Menu, Popover, focus trap, its items) loads at the first pointer or focus on the button (issue 14: initial JavaScript). */
const UserMenuDropdown = lazy(loadDropdown);

/** The user menu (spec §2.6): the avatar button; a click opens first name, last name, e-mail, Help and legal links, Log Out. */
export function UserMenu() {
  const profile = useProfile();
  const [used, setUsed] = useState(false);
  const initials = `${profile?.firstName?.[0] ?? ''}${profile?.lastName?.[0] ?? ''}`.toUpperCase() || (profile?.email?.[0] ?? '?').toUpperCase();
  const button = (onClick?: () => void) => (
    <UnstyledButton
      aria-label="User menu"
      data-testid="user-menu"
      onPointerEnter={() => void loadDropdown()}
      onFocus={() => void loadDropdown()}
      onClick={onClick}
    >
      <Avatar radius="xl" size={38} color="indigo" variant="filled">
        {initials}
      </Avatar>
    </UnstyledButton>
  );
  if (!used) return button(() => setUsed(true));
  return (
    <Suspense fallback={button()}>
      <UserMenuDropdown trigger={button()} />
    </Suspense>
  );
}
