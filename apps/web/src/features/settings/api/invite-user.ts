import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkBody, Permission } from '@gantry/contracts';
import { http } from '../../../api/http';
import { projectUserKeys } from './keys';

export const inviteUser = ({ projectId, ...body }: { projectId: string; email: string; permission: Permission }) =>
  http.post<OkBody>(`/ms-project/projects/${projectId}/users`, body);

export function useInviteUser(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { email: string; permission: Permission }) => inviteUser({ projectId, ...body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectUserKeys.list(projectId) }),
  });
}
