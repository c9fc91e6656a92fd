/**
 * Query keys of Git accounts. The pipelines feature keeps its own copy of the account,
 * repository and branch fetchers with the same keys (features never import each other),
 * so both share one cache entry.
 */
export const gitAccountKeys = {
  providers: () => ['git-providers'] as const,
  all: (projectId: string) => ['git-accounts', projectId] as const,
  list: (projectId: string) => [...gitAccountKeys.all(projectId), 'list'] as const,
  repositories: (projectId: string, gitAccountId: string) => [...gitAccountKeys.all(projectId), gitAccountId, 'repositories'] as const,
  branches: (projectId: string, gitAccountId: string, repositoryUrl: string) =>
    [...gitAccountKeys.all(projectId), gitAccountId, 'branches', repositoryUrl] as const,
};
