import { useMutation } from '@tanstack/react-query';
import type { LoginAnswer, SetPasswordBody } from '@gantry/contracts';
import { http } from '../../../api/http';

export const setPassword = (body: SetPasswordBody) => http.post<LoginAnswer>('/ms-usermanagement/auth/set-password', body, { auth: false });

export const useSetPassword = () => useMutation({ mutationFn: setPassword });
