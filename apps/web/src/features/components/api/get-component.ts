import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ComponentDetails } from '@gantry/contracts';
import { http } from '../../../api/http';
import { componentKeys, componentPath } from './keys';

export const getComponent = (projectId: string, componentId: string, buildId?: string | null) =>
  http.get<ComponentDetails>(componentPath(projectId, componentId), { query: { buildId: buildId ?? undefined } });

/** A component with the README and schema of its latest version, or of the asked build. */
export const componentQuery = (projectId: string, componentId: string, buildId?: string | null) =>
  queryOptions({ queryKey: componentKeys.detail(projectId, componentId, buildId), queryFn: () => getComponent(projectId, componentId, buildId) });

/** Keeps the shown version while another version of the same component loads. */
export const useComponent = (projectId: string, componentId: string | undefined, buildId?: string | null) =>
  useQuery({
    ...componentQuery(projectId, componentId ?? '', buildId),
    enabled: Boolean(projectId && componentId),
    placeholderData: (prev) => (prev && prev.id === componentId ? prev : undefined),
  });
