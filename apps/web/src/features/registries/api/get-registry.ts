import { useQuery } from '@tanstack/react-query';
import type { DockerRegistry } from '@gantry/contracts';
import { http } from '../../../api/http';
import { registryKeys, registryPath } from './keys';

/** One registry; sensitive credential values come back as the placeholder '(sensitive)'. */
export const getDockerRegistry = (projectId: string, registryName: string) => http.get<DockerRegistry>(registryPath(projectId, registryName));

export const useDockerRegistry = (projectId: string, registryName: string | undefined) =>
  useQuery({
    queryKey: registryKeys.detail(projectId, registryName ?? ''),
    queryFn: () => getDockerRegistry(projectId, registryName ?? ''),
    enabled: Boolean(projectId && registryName),
    // The form is filled once from the answer; a background refetch must not matter.
    staleTime: Infinity,
  });
