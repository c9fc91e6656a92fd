import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Project } from '@gantry/contracts';
import { http } from '../../../api/http';
import { projectKeys } from '../../../api/query-keys';

export const listProjects = () => http.get<{ projects: Project[] }>('/ms-project/projects');

/** The user's projects (the Share dialog's candidates), sorted by name; shares the cache of the project list. */
export const projectsQuery = () =>
  queryOptions({
    queryKey: projectKeys.list(),
    queryFn: listProjects,
    select: (d) => [...d.projects].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })),
  });

export const useProjects = (enabled = true) => useQuery({ ...projectsQuery(), enabled });
