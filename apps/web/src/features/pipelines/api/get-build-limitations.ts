import { queryOptions, useQuery } from '@tanstack/react-query';
import { PIPELINE_LIST_POLL_MS } from '@gantry/contracts';
import { http } from '../../../api/http';
import { base, pipelineKeys } from './keys';

export type BuildLimitations = { buildMinutes: number; usedBuildMinutes: number };

/** getProjectBuildLimitations: the plan's build minutes and those used. */
export const getBuildLimitations = (projectId: string) => http.get<BuildLimitations>(`${base(projectId)}/build-limitations`);

export const buildLimitationsQuery = (projectId: string) =>
  queryOptions({ queryKey: pipelineKeys.limitations(projectId), queryFn: () => getBuildLimitations(projectId) });

/** The Pipeline Manager follows the minutes with its list (every 10 s); other areas read them once. */
export const useBuildLimitations = (projectId: string, options: { enabled?: boolean; poll?: boolean } = {}) =>
  useQuery({
    ...buildLimitationsQuery(projectId),
    enabled: Boolean(projectId) && (options.enabled ?? true),
    ...(options.poll ? { refetchInterval: PIPELINE_LIST_POLL_MS } : {}),
  });
