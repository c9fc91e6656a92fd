import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ComponentBuilding } from '@gantry/contracts';
import { http } from '../../../api/http';
import { componentKeys, componentPath } from './keys';

/** Poll of the component's running build (spec §2: "Component is being built..."). */
export const COMPONENT_BUILDING_POLL_MS = 5_000;

export const getComponentBuilding = (projectId: string, componentId: string) =>
  http.get<ComponentBuilding>(`${componentPath(projectId, componentId)}/building`);

export const componentBuildingQuery = (projectId: string, componentId: string) =>
  queryOptions({
    queryKey: componentKeys.building(projectId, componentId),
    queryFn: () => getComponentBuilding(projectId, componentId),
    refetchInterval: (q) => (q.state.error ? false : COMPONENT_BUILDING_POLL_MS),
  });

export const useComponentBuilding = (projectId: string, componentId: string | undefined, enabled = true) =>
  useQuery({ ...componentBuildingQuery(projectId, componentId ?? ''), enabled: Boolean(projectId && componentId) && enabled });
