import { useMutation } from '@tanstack/react-query';
import type { LoginAnswer, LoginBody } from '@gantry/contracts';
import { http } from '../../../api/http';

/** Wrong credentials answer 401 NotAuthorizedException: a message for the form, so no bearer rules here. */
export const login = (body: LoginBody) => http.post<LoginAnswer>('/ms-usermanagement/auth/login', body, { auth: false });

export const useLogin = () => useMutation({ mutationFn: login });
