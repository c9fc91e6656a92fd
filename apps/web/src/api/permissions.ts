import { useQuery } from '@tanstack/react-query';
import { ACTIONS, PERMISSIONS, can, type Permission, type ProjectAction } from '@gantry/contracts';
import { projectUsersQuery } from './project-users';
import { useCurrentProject, useProfile } from './session';

const LABEL: Record<Permission, string> = { owner: 'Owner', admin: 'Admin', write: 'Write', read: 'Read' };

/** Why a member with `permission` may not take `action` (a tooltip), or null when they may. */
export function refusal(permission: Permission | undefined, action: ProjectAction): string | null {
  if (can(permission, action)) return null;
  const needed = ACTIONS[action];
  const needs = needed === 'owner' ? 'only the project’s owners can do this' : `this needs ${LABEL[needed]} or higher`;
  return permission ? `Your permission in this project is ${LABEL[permission]}: ${needs}.` : `Your permission in this project is not known yet: ${needs}.`;
}

const isPermission = (p: unknown): p is Permission => (PERMISSIONS as readonly unknown[]).includes(p);

/**
 * The signed-in user's permission in the current project: their row of the project users call (spec
 * §3, "the client keeps projectUsers"), and until that answers, what the project list said. Screens use
 * it to hide or disable what the role may not do; the server stays the enforcement.
 */
export function useProjectPermission() {
  const project = useCurrentProject();
  const profile = useProfile();
  const users = useQuery({ ...projectUsersQuery(project?.id ?? ''), enabled: Boolean(project?.id) });
  const own = users.data?.find((u) => u.userId === profile?.id || u.email === profile?.email)?.permission;
  const permission = own ?? (isPermission(project?.permission) ? project.permission : undefined);
  return {
    permission,
    can: (action: ProjectAction) => can(permission, action),
    refusal: (action: ProjectAction) => refusal(permission, action),
  };
}
