import { useMutation } from '@tanstack/react-query';
import type { OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';

export const forgotPassword = (username: string) => http.post<OkBody>('/ms-usermanagement/auth/forgot-password', { username }, { auth: false });

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
