/** Query keys of the registries area; every key starts with the project id. */
export const registryKeys = {
  all: (projectId: string) => ['registries', projectId] as const,
  list: (projectId: string) => [...registryKeys.all(projectId), 'list'] as const,
  detail: (projectId: string, registryName: string) => [...registryKeys.all(projectId), 'detail', registryName] as const,
  repositories: (projectId: string, registryName: string) => [...registryKeys.all(projectId), 'repositories', registryName] as const,
  versions: (projectId: string, registryName: string, repository: string) => [...registryKeys.all(projectId), 'versions', registryName, repository] as const,
};

export const registriesPath = (projectId: string) => `/ms-kube/projects/${projectId}/docker-registries`;
export const registryPath = (projectId: string, registryName: string) => `${registriesPath(projectId)}/${encodeURIComponent(registryName)}`;
