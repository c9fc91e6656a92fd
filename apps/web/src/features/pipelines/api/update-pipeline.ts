import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Pipeline, UpdatePipelineBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { pipelineKeys, pipelinePath } from './keys';

/** updatePipeline: the same fields as create without the name (not editable). */
export const updatePipeline = (projectId: string, pipelineId: string, body: UpdatePipelineBody) =>
  http.put<Pipeline>(pipelinePath(projectId, pipelineId), body);

export function useUpdatePipeline(projectId: string, pipelineId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdatePipelineBody) => updatePipeline(projectId, pipelineId, body),
    onSuccess: (pipeline) => {
      qc.setQueryData(pipelineKeys.detail(projectId, pipelineId), pipeline);
      void qc.invalidateQueries({ queryKey: pipelineKeys.list(projectId) });
      // The spec may now come from another repository or work directory.
      void qc.invalidateQueries({ queryKey: pipelineKeys.spec(projectId, pipelineId) });
    },
  });
}
