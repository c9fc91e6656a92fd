import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { BUILD_PAGE_SIZE, type Build } from '@gantry/contracts';
import { http } from '../../../api/http';
import { pipelineKeys, pipelinePath } from './keys';

export const listPipelineBuilds = (projectId: string, pipelineId: string, cursor: string | null, search: string, signal?: AbortSignal) =>
  http.get<{ builds: Build[] }>(`${pipelinePath(projectId, pipelineId)}/builds`, {
    query: { limit: BUILD_PAGE_SIZE, cursor, search: search.trim() || undefined },
    signal,
  });

/**
 * Builds newest first, 10 per page (spec §2); a next page exists only when a full page came back. Each
 * page follows the last build of the one before (a cursor rather than an offset), so builds started
 * while scrolling neither repeat a row nor skip one, and a deep page costs what the first does.
 */
export const pipelineBuildsQuery = (projectId: string, pipelineId: string, search: string) =>
  infiniteQueryOptions({
    queryKey: pipelineKeys.builds(projectId, pipelineId, search.trim()),
    queryFn: ({ pageParam, signal }) => listPipelineBuilds(projectId, pipelineId, pageParam, search, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => (last.builds.length === BUILD_PAGE_SIZE ? last.builds.at(-1)!.id : undefined),
  });

export const usePipelineBuilds = (projectId: string, pipelineId: string, search: string) =>
  useInfiniteQuery({ ...pipelineBuildsQuery(projectId, pipelineId, search), enabled: Boolean(projectId && pipelineId) });
