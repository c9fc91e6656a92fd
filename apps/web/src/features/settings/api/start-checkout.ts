import { useMutation } from '@tanstack/react-query';
import type { CheckoutBody } from '@gantry/contracts';
import { http } from '../../../api/http';

export const startCheckout = ({ projectId, body }: { projectId: string; body: CheckoutBody }) =>
  http.post<{ url: string }>(`/ms-project/projects/${projectId}/checkout`, body);

/** Opens Stripe Checkout: the whole page goes to the session's URL, and comes back to the billing tab. */
export function useStartCheckout(projectId: string) {
  return useMutation({
    mutationFn: (body: CheckoutBody) => startCheckout({ projectId, body }),
    onSuccess: ({ url }) => window.location.assign(url),
  });
}
