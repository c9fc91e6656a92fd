import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { pipelineKeys, pipelinePath } from './keys';

export const deletePipeline = (projectId: string, pipelineId: string) => http.delete<OkBody>(pipelinePath(projectId, pipelineId));

export function useDeletePipeline(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (pipelineId: string) => deletePipeline(projectId, pipelineId),
    onSuccess: (_ok, pipelineId) => {
      qc.removeQueries({ queryKey: pipelineKeys.detail(projectId, pipelineId) });
      void qc.invalidateQueries({ queryKey: pipelineKeys.list(projectId) });
      void qc.invalidateQueries({ queryKey: pipelineKeys.allMetrics(projectId) });
    },
  });
}
