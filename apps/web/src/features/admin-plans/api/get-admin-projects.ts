import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminProjectPlan } from '@gantry/contracts';
import { http } from '../../../api/http';
import { adminPlanKeys } from './keys';

/** Every project of the instance with its plan (instance admin only; others get 403). */
export const getAdminProjects = () => http.get<{ projects: AdminProjectPlan[] }>('/ms-project/admin/projects');

export const adminProjectsQuery = () =>
  queryOptions({ queryKey: adminPlanKeys.projects(), queryFn: getAdminProjects, select: (d) => d.projects, retry: false });

export const useAdminProjects = () => useQuery(adminProjectsQuery());
