import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Component } from '@gantry/contracts';
import { http } from '../../../api/http';
import { componentKeys, componentsPath } from './keys';

export const listComponents = (projectId: string) => http.get<{ components: Component[] }>(componentsPath(projectId));

/** The project's components, its shared-with ones and the vendor ones, sorted by name (spec §2). */
export const componentsQuery = (projectId: string) =>
  queryOptions({
    queryKey: componentKeys.list(projectId),
    queryFn: () => listComponents(projectId),
    select: (d) => [...d.components].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })),
  });

export const useComponents = (projectId: string) => useQuery({ ...componentsQuery(projectId), enabled: Boolean(projectId) });
