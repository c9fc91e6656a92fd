import { useMutation } from '@tanstack/react-query';
import type { LoginAnswer } from '@gantry/contracts';
import { http } from '../../../api/http';

export const loginWithGithub = (code: string) => http.post<LoginAnswer>('/ms-usermanagement/auth/login/github', { code }, { auth: false });

export const useLoginWithGithub = () => useMutation({ mutationFn: loginWithGithub });
