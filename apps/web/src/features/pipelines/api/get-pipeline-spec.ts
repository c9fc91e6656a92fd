import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PipelineSpec } from '@gantry/contracts';
import { http } from '../../../api/http';
import { pipelineKeys, pipelinePath } from './keys';

export const getPipelineSpec = (projectId: string, pipelineId: string) => http.get<PipelineSpec>(`${pipelinePath(projectId, pipelineId)}/spec`);

/** The spec is read once per visit: a background refetch must never replace what the user is typing. */
export const pipelineSpecQuery = (projectId: string, pipelineId: string) =>
  queryOptions({ queryKey: pipelineKeys.spec(projectId, pipelineId), queryFn: () => getPipelineSpec(projectId, pipelineId), staleTime: Infinity });

export const usePipelineSpec = (projectId: string, pipelineId: string) =>
  useQuery({ ...pipelineSpecQuery(projectId, pipelineId), enabled: Boolean(projectId && pipelineId), refetchOnMount: 'always' });

/** Another area's read of a spec (the component form: its artifact steps): the same cache entry, fresh for 30 s. */
export function usePipelineSpecAs<T>(projectId: string, pipelineId: string | null | undefined, select: (spec: PipelineSpec) => T) {
  return useQuery({
    queryKey: pipelineKeys.spec(projectId, pipelineId ?? ''),
    queryFn: () => getPipelineSpec(projectId, pipelineId ?? ''),
    staleTime: 30_000,
    enabled: Boolean(projectId && pipelineId),
    select,
  });
}
