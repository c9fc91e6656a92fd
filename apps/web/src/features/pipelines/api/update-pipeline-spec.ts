import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PipelineSpec } from '@gantry/contracts';
import { http } from '../../../api/http';
import { pipelineKeys, pipelinePath } from './keys';

/** updatePipelineSpec: 409 when the spec lives in the repository, 400 with fields.gantryYaml when invalid. */
export const updatePipelineSpec = (projectId: string, pipelineId: string, gantryYaml: string) =>
  http.put<PipelineSpec>(`${pipelinePath(projectId, pipelineId)}/spec`, { gantryYaml });

export function useUpdatePipelineSpec(projectId: string, pipelineId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (gantryYaml: string) => updatePipelineSpec(projectId, pipelineId, gantryYaml),
    onSuccess: (spec) => qc.setQueryData(pipelineKeys.spec(projectId, pipelineId), spec),
  });
}
