import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { projectUserKeys } from './keys';

export const removeUser = ({ projectId, userId }: { projectId: string; userId: string }) =>
  http.delete<OkBody>(`/ms-project/projects/${projectId}/users/${userId}`);

export function useRemoveUser(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => removeUser({ projectId, userId }),
    onSuccess: () => qc.invalidateQueries({ queryKey: projectUserKeys.list(projectId) }),
  });
}
