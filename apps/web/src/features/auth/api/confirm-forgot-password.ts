import { useMutation } from '@tanstack/react-query';
import type { ConfirmForgotPasswordBody, OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';

export const confirmForgotPassword = (body: ConfirmForgotPasswordBody) =>
  http.post<OkBody>('/ms-usermanagement/auth/confirm-forgot-password', body, { auth: false });

export const useConfirmForgotPassword = () => useMutation({ mutationFn: confirmForgotPassword });
