import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DockerRegistry, UpdateRegistryBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { registryKeys, registryPath } from './keys';

export const updateDockerRegistry = (projectId: string, registryName: string, body: UpdateRegistryBody) =>
  http.put<DockerRegistry>(registryPath(projectId, registryName), body);

export function useUpdateDockerRegistry(projectId: string, registryName: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateRegistryBody) => updateDockerRegistry(projectId, registryName, body),
    onSuccess: () => {
      qc.removeQueries({ queryKey: registryKeys.detail(projectId, registryName) });
      // Credentials may point somewhere else now: repositories and versions are read again.
      void qc.invalidateQueries({ queryKey: registryKeys.all(projectId) });
    },
  });
}
