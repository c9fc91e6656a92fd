import { queryOptions } from '@tanstack/react-query';
import type { ProjectUser } from '@gantry/contracts';
import { http } from './http';

/** A project's users: under the projects prefix, so creating, renaming or deleting a project refreshes them too. */
export const projectUserKeys = {
  list: (projectId: string) => ['projects', projectId, 'users'] as const,
};

export const getProjectUsers = (projectId: string) => http.get<{ users: ProjectUser[] }>(`/ms-project/projects/${projectId}/users`);

export const projectUsersQuery = (projectId: string) =>
  queryOptions({ queryKey: projectUserKeys.list(projectId), queryFn: () => getProjectUsers(projectId), select: (d) => d.users });
