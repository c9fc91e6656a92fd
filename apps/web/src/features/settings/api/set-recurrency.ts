import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subscription } from '@gantry/contracts';
import { http } from '../../../api/http';
import { billingKeys } from './keys';

export const setRecurrency = ({ projectId, enabled }: { projectId: string; enabled: boolean }) =>
  http.put<Subscription>(`/ms-project/projects/${projectId}/subscription/recurrency`, { enabled });

export function useSetRecurrency(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) => setRecurrency({ projectId, enabled }),
    onSuccess: (subscription) => qc.setQueryData(billingKeys.subscription(projectId), subscription),
  });
}
