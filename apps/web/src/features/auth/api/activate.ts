import { useMutation } from '@tanstack/react-query';
import type { ActivateBody, OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';

export const activate = (body: ActivateBody) => http.post<OkBody>('/ms-usermanagement/auth/activate', body, { auth: false });

export const useActivate = () => useMutation({ mutationFn: activate });
