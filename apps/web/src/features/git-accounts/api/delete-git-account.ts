import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { gitAccountKeys } from './keys';

export const deleteGitAccount = (projectId: string, gitAccountId: string) => http.delete<OkBody>(`/ms-ap/projects/${projectId}/git-accounts/${gitAccountId}`);

export function useDeleteGitAccount(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (gitAccountId: string) => deleteGitAccount(projectId, gitAccountId),
    onSuccess: () => qc.invalidateQueries({ queryKey: gitAccountKeys.all(projectId) }),
  });
}
