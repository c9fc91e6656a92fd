/** Query keys of Git accounts, their repositories and branches (the pipelines feature reads them through this feature's index). */
export const gitAccountKeys = {
  providers: () => ['git-providers'] as const,
  all: (projectId: string) => ['git-accounts', projectId] as const,
  list: (projectId: string) => [...gitAccountKeys.all(projectId), 'list'] as const,
  repositories: (projectId: string, gitAccountId: string) => [...gitAccountKeys.all(projectId), gitAccountId, 'repositories'] as const,
  branches: (projectId: string, gitAccountId: string, repositoryUrl: string) =>
    [...gitAccountKeys.all(projectId), gitAccountId, 'branches', repositoryUrl] as const,
};
