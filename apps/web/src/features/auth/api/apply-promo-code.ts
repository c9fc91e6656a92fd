import { useMutation } from '@tanstack/react-query';
import type { ApplyPromoCodeBody, OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';

/** Reserves an AppSumo code for an e-mail before the sign-up. */
export const applyPromoCode = (body: ApplyPromoCodeBody) => http.post<OkBody>('/ms-usermanagement/promo-codes/apply', body, { auth: false });

export const useApplyPromoCode = () => useMutation({ mutationFn: applyPromoCode });
