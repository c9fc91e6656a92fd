/** Query keys of the components area; every key starts with the project id. */
export const componentKeys = {
  all: (projectId: string) => ['components', projectId] as const,
  list: (projectId: string) => [...componentKeys.all(projectId), 'list'] as const,
  detailsOf: (projectId: string, componentId: string) => [...componentKeys.all(projectId), 'detail', componentId] as const,
  detail: (projectId: string, componentId: string, buildId?: string | null) => [...componentKeys.detailsOf(projectId, componentId), buildId ?? 'latest'] as const,
  versions: (projectId: string, componentId: string) => [...componentKeys.all(projectId), 'versions', componentId] as const,
  building: (projectId: string, componentId: string) => [...componentKeys.all(projectId), 'building', componentId] as const,
};

/**
 * Pipeline keys: the same shape as features/pipelines/api/keys.ts, so the form's pipeline list
 * and specs share the cache with the Pipeline Manager (the raw answers are the same).
 */
export const pipelineKeys = {
  list: (projectId: string) => ['pipelines', projectId, 'list'] as const,
  spec: (projectId: string, pipelineId: string) => ['pipelines', projectId, 'spec', pipelineId] as const,
};

export const componentsPath = (projectId: string) => `/ms-engine/projects/${projectId}/components`;
export const componentPath = (projectId: string, componentId: string) => `${componentsPath(projectId)}/${componentId}`;
