import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminProjectPlan } from '@gantry/contracts';
import { http } from '../../../api/http';
import { adminPlanKeys } from './keys';

export const setProjectPlan = ({ projectId, planId }: { projectId: string; planId: string }) =>
  http.put<AdminProjectPlan>(`/ms-project/admin/projects/${projectId}/plan`, { planId });

export function useSetProjectPlan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setProjectPlan,
    onSuccess: (row) => {
      qc.setQueryData<{ projects: AdminProjectPlan[] }>(adminPlanKeys.projects(), (d) => d && { projects: d.projects.map((p) => (p.id === row.id ? row : p)) });
      // The project's own billing tab and the project list show the plan too.
      void qc.invalidateQueries({ queryKey: ['billing'] });
      void qc.invalidateQueries({ queryKey: ['projects'] });
    },
  });
}
