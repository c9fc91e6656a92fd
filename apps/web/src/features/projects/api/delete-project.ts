import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { projectKeys } from './keys';
import { isApiError } from '../../../api/errors';

export const deleteProject = (id: string) => http.delete<OkBody>(`/ms-project/projects/${id}`);

export function useDeleteProject() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: deleteProject, onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.all }) });
}

/** The failure text: the message plus 'Deployed stages: ' and their names when the 409 lists them (spec §8). */
export function deleteProjectErrorText(e: unknown): string | null {
  if (!isApiError(e)) return null;
  const stages = e.body.deployedStages;
  if (Array.isArray(stages) && stages.length) return `${e.message} Deployed stages: ${stages.join(', ')}`;
  return null;
}
