import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Pipeline } from '@gantry/contracts';
import { http } from '../../../api/http';
import { pipelineKeys, pipelinePath } from './keys';

export const getPipeline = (projectId: string, pipelineId: string) => http.get<Pipeline>(pipelinePath(projectId, pipelineId));

export const pipelineQuery = (projectId: string, pipelineId: string) =>
  queryOptions({ queryKey: pipelineKeys.detail(projectId, pipelineId), queryFn: () => getPipeline(projectId, pipelineId) });

export const usePipeline = (projectId: string, pipelineId: string | undefined) =>
  useQuery({ ...pipelineQuery(projectId, pipelineId ?? ''), enabled: Boolean(projectId && pipelineId) });
