import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProjectUser } from '@gantry/contracts';
import { http } from '../../../api/http';
import { projectUserKeys } from './keys';

export const getProjectUsers = (projectId: string) => http.get<{ users: ProjectUser[] }>(`/ms-project/projects/${projectId}/users`);

export const projectUsersQuery = (projectId: string) =>
  queryOptions({ queryKey: projectUserKeys.list(projectId), queryFn: () => getProjectUsers(projectId), select: (d) => d.users });

export const useProjectUsers = (projectId: string) => useQuery(projectUsersQuery(projectId));
