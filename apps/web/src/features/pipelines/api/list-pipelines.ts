import { queryOptions, useQuery } from '@tanstack/react-query';
import { PIPELINE_LIST_POLL_MS, sortPipelines, type Pipeline } from '@gantry/contracts';
import { http } from '../../../api/http';
import { isPlanLimit } from '../../../api/errors';
import { base, pipelineKeys } from './keys';

export const listPipelines = (projectId: string) => http.get<{ pipelines: Pipeline[] }>(`${base(projectId)}/pipelines`);

/** The project's pipelines, newest stopped build first, no-build last; refreshed every 10 s (spec §2, §9) unless the plan blocks it. */
export const pipelinesQuery = (projectId: string) =>
  queryOptions({
    queryKey: pipelineKeys.list(projectId),
    queryFn: () => listPipelines(projectId),
    select: (d) => sortPipelines(d.pipelines),
    refetchInterval: (q) => (isPlanLimit(q.state.error) ? false : PIPELINE_LIST_POLL_MS),
  });

export const usePipelines = (projectId: string) => useQuery({ ...pipelinesQuery(projectId), enabled: Boolean(projectId) });
