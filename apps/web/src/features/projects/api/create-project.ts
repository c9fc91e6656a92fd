import { useMutation, useQueryClient } from '@tanstack/react-query';
import { STARTER_PLAN_ID } from '@gantry/contracts';
import { http } from '../../../api/http';
import { projectKeys } from './keys';

/** New projects start on the STARTER plan (spec §9: 14-day trial). */
export const createProject = (body: { name: string; description: string }) =>
  http.post<{ id: string }>('/ms-project/projects', { ...body, paymentPlanId: STARTER_PLAN_ID });

export function useCreateProject() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: createProject, onSuccess: () => qc.invalidateQueries({ queryKey: projectKeys.all }) });
}
