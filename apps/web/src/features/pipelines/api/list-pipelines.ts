import { queryOptions, useQuery } from '@tanstack/react-query';
import { PIPELINE_LIST_POLL_MS, sortPipelines, type Pipeline, type PipelineList as PipelinePage } from '@gantry/contracts';
import { http } from '../../../api/http';
import { isPlanLimit } from '../../../api/errors';
import { pollMs } from '../../../api/poll';
import { base, pipelineKeys } from './keys';

/** Every pipeline of the project: the server answers them by name a bounded page at a time. */
export async function listPipelines(projectId: string): Promise<{ pipelines: Pipeline[] }> {
  const pipelines: Pipeline[] = [];
  let cursor: string | null = null;
  do {
    const page: PipelinePage = await http.get<PipelinePage>(`${base(projectId)}/pipelines`, { query: { cursor } });
    pipelines.push(...page.pipelines);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return { pipelines };
}

type PipelineList = Awaited<ReturnType<typeof listPipelines>>;

const byLatestBuild = (d: PipelineList) => sortPipelines(d.pipelines);
const byName = (d: PipelineList) => [...d.pipelines].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));

/** The project's pipelines, newest stopped build first, no-build last; refreshed every 10 s (spec §2, §9) unless the plan blocks it. */
export const pipelinesQuery = (projectId: string) =>
  queryOptions({
    queryKey: pipelineKeys.list(projectId),
    queryFn: () => listPipelines(projectId),
    select: byLatestBuild,
    refetchInterval: (q) => (isPlanLimit(q.state.error) ? false : pollMs(PIPELINE_LIST_POLL_MS)),
  });

/** The Pipeline Manager's list. */
export const usePipelines = (projectId: string) => useQuery({ ...pipelinesQuery(projectId), enabled: Boolean(projectId) });

/**
 * The list as other areas read it, from the same cache entry (so pipeline mutations and build
 * events refresh it too) but without the Manager's polling: the overview panel by latest build
 * (a failure is shown at once, not retried), the component form's picker by name.
 */
export function usePipelineList(projectId: string | undefined, order: 'latest-build' | 'name') {
  return useQuery({
    queryKey: pipelineKeys.list(projectId ?? ''),
    queryFn: () => listPipelines(projectId ?? ''),
    select: order === 'name' ? byName : byLatestBuild,
    enabled: Boolean(projectId),
    ...(order === 'latest-build' ? { retry: false } : {}),
  });
}
