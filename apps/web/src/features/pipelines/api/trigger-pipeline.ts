import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../api/http';
import { pipelineKeys, pipelinePath } from './keys';

/** triggerPipeline: a build of the branch, sent as ref refs/heads/{branch}. */
export const triggerPipeline = (projectId: string, pipelineId: string, branch: string) =>
  http.post<{ buildId: string }>(`${pipelinePath(projectId, pipelineId)}/builds`, { ref: `refs/heads/${branch}` });

export function useTriggerPipeline(projectId: string, pipelineId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (branch: string) => triggerPipeline(projectId, pipelineId, branch),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: pipelineKeys.buildsOf(projectId, pipelineId) });
      void qc.invalidateQueries({ queryKey: pipelineKeys.list(projectId) });
      void qc.invalidateQueries({ queryKey: pipelineKeys.detail(projectId, pipelineId) });
    },
  });
}
