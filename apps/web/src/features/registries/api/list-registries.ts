import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DockerRegistry, DockerRegistryList } from '@gantry/contracts';
import { http } from '../../../api/http';
import { registriesPath, registryKeys } from './keys';

export const listDockerRegistries = (projectId: string) => http.get<DockerRegistryList>(registriesPath(projectId));

/** The default registry first (spec §2), then by name — whatever order the server answers in. */
export const defaultFirst = (list: DockerRegistry[]) =>
  [...list].sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.registryName.localeCompare(b.registryName));

export const dockerRegistriesQuery = (projectId: string) =>
  queryOptions({
    queryKey: registryKeys.list(projectId),
    queryFn: () => listDockerRegistries(projectId),
    select: (d: DockerRegistryList) => defaultFirst(d.dockerRegistries),
  });

/** The project's Docker registries, default first. */
export const useDockerRegistries = (projectId: string | undefined) => useQuery({ ...dockerRegistriesQuery(projectId ?? ''), enabled: Boolean(projectId) });
