import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PipelineBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { base, pipelineKeys } from './keys';

export const createPipeline = (projectId: string, body: PipelineBody) => http.post<{ pipelineId: string }>(`${base(projectId)}/pipelines`, body);

export function useCreatePipeline(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: PipelineBody) => createPipeline(projectId, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: pipelineKeys.list(projectId) }),
  });
}
