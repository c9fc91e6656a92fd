import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateRegistryBody, DockerRegistry } from '@gantry/contracts';
import { http } from '../../../api/http';
import { registriesPath, registryKeys } from './keys';

export const createDockerRegistry = (projectId: string, body: CreateRegistryBody) => http.post<DockerRegistry>(registriesPath(projectId), body);

export function useCreateDockerRegistry(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateRegistryBody) => createDockerRegistry(projectId, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: registryKeys.list(projectId) }),
  });
}
