import { useMutation } from '@tanstack/react-query';
import type { OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';

/** Gives the reserved code back when the sign-up fails. */
export const releasePromoCode = (email: string) => http.post<OkBody>('/ms-usermanagement/promo-codes/release', { email }, { auth: false });

export const useReleasePromoCode = () => useMutation({ mutationFn: releasePromoCode });
