import { useQuery } from '@tanstack/react-query';
import type { DockerRepositoryList } from '@gantry/contracts';
import { http } from '../../../api/http';
import { registryKeys, registryPath } from './keys';

export const listDockerRepositories = (projectId: string, registryName: string) =>
  http.get<DockerRepositoryList>(`${registryPath(projectId, registryName)}/repositories`);

/** The repositories of a registry, by name (failures toast "Can't fetch repositories for selected registry" at the caller). */
export const useDockerRepositories = (projectId: string | undefined, registryName: string | null | undefined) =>
  useQuery({
    queryKey: registryKeys.repositories(projectId ?? '', registryName ?? ''),
    queryFn: () => listDockerRepositories(projectId ?? '', registryName ?? ''),
    select: (d: DockerRepositoryList) => [...d.repositories].sort((a, b) => a.name.localeCompare(b.name)),
    enabled: Boolean(projectId && registryName),
  });
