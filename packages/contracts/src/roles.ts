import { z } from 'zod';
import { messages } from './common.js';

export const PERMISSIONS = ['owner', 'admin', 'write', 'read'] as const;
export const Permission = z.enum(PERMISSIONS, { error: messages.permissionRequired });
export type Permission = z.infer<typeof Permission>;

const rank: Record<Permission, number> = { read: 0, write: 1, admin: 2, owner: 3 };

/** What a project action needs (spec §6). */
export const ACTIONS = {
  view: 'read',
  change: 'write', // components, environments, pipelines, builds, deployments, schedules…
  manageUsers: 'admin',
  manageProject: 'owner', // update or delete the project, billing
} as const satisfies Record<string, Permission>;
export type ProjectAction = keyof typeof ACTIONS;

export function hasPermission(actual: Permission, needed: Permission): boolean {
  return rank[actual] >= rank[needed];
}

export function can(actual: Permission | undefined, action: ProjectAction): boolean {
  return actual !== undefined && hasPermission(actual, ACTIONS[action]);
}

/** Who may give or take a permission: admins manage users, but only owners touch owners. */
export function canAssign(actor: Permission, from: Permission | undefined, to: Permission | undefined): boolean {
  if (!can(actor, 'manageUsers')) return false;
  if (actor === 'owner') return true;
  return from !== 'owner' && to !== 'owner';
}
