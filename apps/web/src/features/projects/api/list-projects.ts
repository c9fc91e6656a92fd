import { queryOptions, useQuery } from '@tanstack/react-query';
import { sortProjects, type Project } from '@gantry/contracts';
import { http } from '../../../api/http';
import { projectKeys } from './keys';

export const listProjects = () => http.get<{ projects: Project[] }>('/ms-project/projects');

/** The caller's projects, sorted case-insensitively by name (spec §2.5). */
export const projectsQuery = () => queryOptions({ queryKey: projectKeys.list(), queryFn: listProjects, select: (d) => sortProjects(d.projects) });

export const useProjects = (enabled = true) => useQuery({ ...projectsQuery(), enabled });
