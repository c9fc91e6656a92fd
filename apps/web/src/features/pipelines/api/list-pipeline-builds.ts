import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { BUILD_PAGE_SIZE, type Build } from '@gantry/contracts';
import { http } from '../../../api/http';
import { pipelineKeys, pipelinePath } from './keys';

export const listPipelineBuilds = (projectId: string, pipelineId: string, offset: number, search: string, signal?: AbortSignal) =>
  http.get<{ builds: Build[] }>(`${pipelinePath(projectId, pipelineId)}/builds`, {
    query: { limit: BUILD_PAGE_SIZE, offset, search: search.trim() || undefined },
    signal,
  });

/** Builds newest first, 10 per page; the next offset exists only when a full page came back (spec §2, §4). */
export const pipelineBuildsQuery = (projectId: string, pipelineId: string, search: string) =>
  infiniteQueryOptions({
    queryKey: pipelineKeys.builds(projectId, pipelineId, search.trim()),
    queryFn: ({ pageParam, signal }) => listPipelineBuilds(projectId, pipelineId, pageParam, search, signal),
    initialPageParam: 0,
    getNextPageParam: (last, _all, lastOffset) => (last.builds.length === BUILD_PAGE_SIZE ? lastOffset + BUILD_PAGE_SIZE : undefined),
  });

export const usePipelineBuilds = (projectId: string, pipelineId: string, search: string) =>
  useInfiniteQuery({ ...pipelineBuildsQuery(projectId, pipelineId, search), enabled: Boolean(projectId && pipelineId) });
