import { queryOptions, useQuery } from '@tanstack/react-query';
import { PIPELINE_LIST_POLL_MS, type PipelineMetrics } from '@gantry/contracts';
import { http } from '../../../api/http';
import { base, pipelineKeys, pipelinePath } from './keys';

/** getPipelineMetrics(projectId, pipelineId optional): one pipeline's numbers, or the whole project's. */
export const getPipelineMetrics = (projectId: string, pipelineId?: string) =>
  http.get<PipelineMetrics>(pipelineId ? `${pipelinePath(projectId, pipelineId)}/metrics` : `${base(projectId)}/pipeline-metrics`);

export const pipelineMetricsQuery = (projectId: string, pipelineId?: string) =>
  queryOptions({
    queryKey: pipelineKeys.metrics(projectId, pipelineId),
    queryFn: () => getPipelineMetrics(projectId, pipelineId),
    refetchInterval: PIPELINE_LIST_POLL_MS,
  });

export const usePipelineMetrics = (projectId: string, pipelineId?: string, enabled = true) =>
  useQuery({ ...pipelineMetricsQuery(projectId, pipelineId), enabled: Boolean(projectId) && enabled });
