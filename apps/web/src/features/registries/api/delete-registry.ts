import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { registryKeys, registryPath } from './keys';

export const deleteDockerRegistry = (projectId: string, registryName: string) => http.delete<OkBody>(registryPath(projectId, registryName));

export function useDeleteDockerRegistry(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (registryName: string) => deleteDockerRegistry(projectId, registryName),
    onSuccess: (_ok, registryName) => {
      qc.removeQueries({ queryKey: registryKeys.detail(projectId, registryName) });
      qc.removeQueries({ queryKey: registryKeys.repositories(projectId, registryName) });
      void qc.invalidateQueries({ queryKey: registryKeys.list(projectId) });
    },
  });
}
