/**
 * The Docker registries feature's public surface: its routes, and the registry reads other areas
 * share (the Kubernetes service form picks a registry, a repository and a version with these).
 */
export { registryRoutes } from './routes';
export { useDockerRegistries, listDockerRegistries } from './api/list-registries';
export { useDockerRepositories, listDockerRepositories } from './api/list-repositories';
export { useRepositoryVersions, listRepositoryVersions, repositoryVersionsQuery, VERSIONS_PAGE_SIZE } from './api/list-repository-versions';
export { registryKeys } from './api/keys';
