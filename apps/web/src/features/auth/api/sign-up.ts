import { useMutation } from '@tanstack/react-query';
import type { OkBody, SignUpBody } from '@gantry/contracts';
import { http } from '../../../api/http';

export const signUp = (body: SignUpBody) => http.post<OkBody>('/ms-usermanagement/auth/sign-up', body, { auth: false });

export const useSignUp = () => useMutation({ mutationFn: signUp });
