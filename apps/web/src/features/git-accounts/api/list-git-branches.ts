import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../api/http';
import { gitAccountKeys } from './keys';

/** listGitAccountRepositoryBranches: the branches of one repository, for the Trigger pipeline picker (pipelines feature). */
export const listGitBranches = (projectId: string, gitAccountId: string, repositoryUrl: string) =>
  http.get<{ branches: string[] }>(`/ms-ap/projects/${projectId}/git-accounts/${gitAccountId}/branches`, { query: { repositoryUrl } });

export const gitBranchesQuery = (projectId: string, gitAccountId: string, repositoryUrl: string) =>
  queryOptions({
    queryKey: gitAccountKeys.branches(projectId, gitAccountId, repositoryUrl),
    queryFn: () => listGitBranches(projectId, gitAccountId, repositoryUrl),
    select: (d) => d.branches,
    staleTime: 30_000,
  });

export const useGitBranches = (projectId: string, gitAccountId: string, repositoryUrl: string, enabled = true) =>
  useQuery({ ...gitBranchesQuery(projectId, gitAccountId, repositoryUrl), enabled: Boolean(projectId && gitAccountId && repositoryUrl) && enabled });
