import { useMutation } from '@tanstack/react-query';
import type { OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';

export const resendInvitation = ({ projectId, username }: { projectId: string; username: string }) =>
  http.post<OkBody>(`/ms-project/projects/${projectId}/users/resend`, { username });

export const useResendInvitation = (projectId: string) => useMutation({ mutationFn: (username: string) => resendInvitation({ projectId, username }) });
