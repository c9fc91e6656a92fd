/** Query keys of the pipelines area; every key starts with the project id. */
export const pipelineKeys = {
  all: (projectId: string) => ['pipelines', projectId] as const,
  list: (projectId: string) => [...pipelineKeys.all(projectId), 'list'] as const,
  detail: (projectId: string, pipelineId: string) => [...pipelineKeys.all(projectId), 'detail', pipelineId] as const,
  spec: (projectId: string, pipelineId: string) => [...pipelineKeys.all(projectId), 'spec', pipelineId] as const,
  buildsOf: (projectId: string, pipelineId: string) => [...pipelineKeys.all(projectId), 'builds', pipelineId] as const,
  builds: (projectId: string, pipelineId: string, search: string) => [...pipelineKeys.buildsOf(projectId, pipelineId), search] as const,
  build: (projectId: string, pipelineId: string, buildId: string) => [...pipelineKeys.all(projectId), 'build', pipelineId, buildId] as const,
  buildsOfPipeline: (projectId: string, pipelineId: string) => [...pipelineKeys.all(projectId), 'build', pipelineId] as const,
  metrics: (projectId: string, pipelineId?: string) => [...pipelineKeys.all(projectId), 'metrics', pipelineId ?? 'project'] as const,
  allMetrics: (projectId: string) => [...pipelineKeys.all(projectId), 'metrics'] as const,
  limitations: (projectId: string) => [...pipelineKeys.all(projectId), 'limitations'] as const,
};

export const base = (projectId: string) => `/ms-ap/projects/${projectId}`;
export const pipelinePath = (projectId: string, pipelineId: string) => `${base(projectId)}/pipelines/${pipelineId}`;
export const buildPath = (projectId: string, pipelineId: string, buildId: string) =>
  `${pipelinePath(projectId, pipelineId)}/builds/${encodeURIComponent(buildId)}`;
