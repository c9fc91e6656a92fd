import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Project } from '@gantry/contracts';
import { http } from '../../../api/http';
import { projectKeys } from './keys';

export const updateProject = ({ id, ...body }: { id: string; name: string; description: string; paymentPlanId: string }) =>
  http.put<Project>(`/ms-project/projects/${id}`, body);

export function useUpdateProject() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updateProject, onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.all }) });
}
