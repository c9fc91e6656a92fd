import { z } from 'zod';
import { Email, InputText, InputUuid, RequiredText } from './common.js';
import { Permission } from './roles.js';
import { UserStatus } from './auth.js';

export const ProjectBody = z.object({
  name: RequiredText('Project name', 20),
  description: RequiredText('Description', 500),
  paymentPlanId: InputText().default('STARTER'),
});
export type ProjectBody = z.input<typeof ProjectBody>;

export const Project = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  paymentPlanId: z.string(),
  permission: Permission,
  createdAt: z.string(),
  stagesCount: z.number().int(),
  componentsCount: z.number().int(),
});
export type Project = z.infer<typeof Project>;
export const ProjectList = z.object({ projects: z.array(Project) });
export const ProjectIdParams = z.object({ projectId: InputUuid() });
export const ProjectUserParams = ProjectIdParams.extend({ userId: InputUuid() });
export const CreatedId = z.object({ id: z.string() });

export const ProjectUser = z.object({
  userId: z.string(),
  id: z.string(),
  permission: Permission,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  status: UserStatus,
});
export type ProjectUser = z.infer<typeof ProjectUser>;
export const ProjectUserList = z.object({ users: z.array(ProjectUser) });

export const InviteUserBody = z.object({ email: Email, permission: Permission.default('write') });
export type InviteUserBody = z.input<typeof InviteUserBody>;
export const UpdatePermissionBody = z.object({ permission: Permission });
export const ResendInvitationBody = z.object({ username: Email });

export const DeleteProjectConflict = z.object({ message: z.string(), deployedStages: z.array(z.string()) });

/** Projects sort by name, case-insensitively (spec §2.5). */
export function sortProjects<T extends { name: string }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

/** Case-insensitive substring match on any of the given fields (spec §5). */
export function matchesSearch(term: string, ...fields: (string | null | undefined)[]): boolean {
  const t = term.trim().toLowerCase();
  if (!t) return true;
  return fields.some((f) => (f ?? '').toLowerCase().includes(t));
}

export const PENDING_STATUS = 'FORCE_CHANGE_PASSWORD';
export const isPending = (status: string) => status === PENDING_STATUS;
