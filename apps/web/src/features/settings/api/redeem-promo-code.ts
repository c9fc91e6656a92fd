import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subscription } from '@gantry/contracts';
import { http } from '../../../api/http';
import { billingKeys } from './keys';

export const redeemPromoCode = ({ projectId, redeemCode }: { projectId: string; redeemCode: string }) =>
  http.post<Subscription>(`/ms-project/projects/${projectId}/promo-code`, { redeemCode });

export function useRedeemPromoCode(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (redeemCode: string) => redeemPromoCode({ projectId, redeemCode }),
    onSuccess: (subscription) => {
      qc.setQueryData(billingKeys.subscription(projectId), subscription);
      void qc.invalidateQueries({ queryKey: billingKeys.history(projectId) });
    },
  });
}
