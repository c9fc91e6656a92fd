import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ComponentVersion } from '@gantry/contracts';
import { http } from '../../../api/http';
import { componentKeys, componentPath } from './keys';

export const listComponentVersions = (projectId: string, componentId: string) =>
  http.get<{ versions: ComponentVersion[] }>(`${componentPath(projectId, componentId)}/versions`);

const time = (v: ComponentVersion) => (v.stopDate ? Date.parse(v.stopDate) : Number.NEGATIVE_INFINITY);

/** The component's successful builds, newest first (spec §2); the latest one carries isLatestVersion. */
export const componentVersionsQuery = (projectId: string, componentId: string) =>
  queryOptions({
    queryKey: componentKeys.versions(projectId, componentId),
    queryFn: () => listComponentVersions(projectId, componentId),
    select: (d) =>
      d.versions
        .map((v, i) => ({ v, i }))
        .sort((a, b) => (a.v.isLatestVersion !== b.v.isLatestVersion ? (a.v.isLatestVersion ? -1 : 1) : time(b.v) - time(a.v) || a.i - b.i))
        .map(({ v }) => v),
  });

export const useComponentVersions = (projectId: string, componentId: string | undefined) =>
  useQuery({ ...componentVersionsQuery(projectId, componentId ?? ''), enabled: Boolean(projectId && componentId) });
