import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { buildPath, pipelineKeys } from './keys';

export const stopPipelineBuild = (projectId: string, pipelineId: string, buildId: string) =>
  http.post<OkBody>(`${buildPath(projectId, pipelineId, buildId)}/stop`);

export function useStopPipelineBuild(projectId: string, pipelineId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (buildId: string) => stopPipelineBuild(projectId, pipelineId, buildId),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: pipelineKeys.buildsOfPipeline(projectId, pipelineId) });
      void qc.invalidateQueries({ queryKey: pipelineKeys.buildsOf(projectId, pipelineId) });
      void qc.invalidateQueries({ queryKey: pipelineKeys.list(projectId) });
    },
  });
}
