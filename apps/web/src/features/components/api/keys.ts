/** Query keys of the components area; every key starts with the project id. */
export const componentKeys = {
  all: (projectId: string) => ['components', projectId] as const,
  list: (projectId: string) => [...componentKeys.all(projectId), 'list'] as const,
  detailsOf: (projectId: string, componentId: string) => [...componentKeys.all(projectId), 'detail', componentId] as const,
  detail: (projectId: string, componentId: string, buildId?: string | null) =>
    [...componentKeys.detailsOf(projectId, componentId), buildId ?? 'latest'] as const,
  versions: (projectId: string, componentId: string) => [...componentKeys.all(projectId), 'versions', componentId] as const,
  /** The inputs and outputs of one build ('LATEST' or a version id). */
  schema: (projectId: string, componentId: string, version: string) => [...componentKeys.all(projectId), 'schema', componentId, version] as const,
  building: (projectId: string, componentId: string) => [...componentKeys.all(projectId), 'building', componentId] as const,
};

export const componentsPath = (projectId: string) => `/ms-engine/projects/${projectId}/components`;
export const componentPath = (projectId: string, componentId: string) => `${componentsPath(projectId)}/${componentId}`;
