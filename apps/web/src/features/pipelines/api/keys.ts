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

/**
 * Git account keys: the same shape as features/git-accounts/api/keys.ts, so the form's
 * account, repository and branch lists share the cache with the Settings Git tab.
 */
export const gitKeys = {
  all: (projectId: string) => ['git-accounts', projectId] as const,
  list: (projectId: string) => [...gitKeys.all(projectId), 'list'] as const,
  repositories: (projectId: string, gitAccountId: string) => [...gitKeys.all(projectId), gitAccountId, 'repositories'] as const,
  branches: (projectId: string, gitAccountId: string, repositoryUrl: string) => [...gitKeys.all(projectId), gitAccountId, 'branches', repositoryUrl] as const,
};

export const base = (projectId: string) => `/ms-ap/projects/${projectId}`;
export const pipelinePath = (projectId: string, pipelineId: string) => `${base(projectId)}/pipelines/${pipelineId}`;
export const buildPath = (projectId: string, pipelineId: string, buildId: string) => `${pipelinePath(projectId, pipelineId)}/builds/${encodeURIComponent(buildId)}`;
