import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Stage } from '@gantry/contracts';
import { http } from '../../../api/http';
import { stageKeys } from '../../../api/query-keys';

export const listStages = (projectId: string) => http.get<{ stages: Stage[] }>(`/ms-engine/projects/${projectId}/stages`);

/** The project's environments (shares the environments feature's cache key). */
export const stagesQuery = (projectId: string) => queryOptions({ queryKey: stageKeys.list(projectId), queryFn: () => listStages(projectId), select: (d) => d.stages });

export const useStages = (projectId: string, enabled = true) => useQuery({ ...stagesQuery(projectId), enabled: Boolean(projectId) && enabled });
