import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkBody, Permission } from '@gantry/contracts';
import { http } from '../../../api/http';
import { projectUserKeys } from './keys';

export const updateUserPermission = ({ projectId, userId, permission }: { projectId: string; userId: string; permission: Permission }) =>
  http.put<OkBody>(`/ms-project/projects/${projectId}/users/${userId}`, { permission });

export function useUpdateUserPermission(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { userId: string; permission: Permission }) => updateUserPermission({ projectId, ...v }),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectUserKeys.list(projectId) }),
  });
}
