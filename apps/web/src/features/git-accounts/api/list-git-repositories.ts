import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GitRepository } from '@gantry/contracts';
import { http } from '../../../api/http';
import { gitAccountKeys } from './keys';

/** listGitAccountRepositories: the repositories the chosen account can reach. */
export const listGitRepositories = (projectId: string, gitAccountId: string) =>
  http.get<{ repositories: GitRepository[] }>(`/ms-ap/projects/${projectId}/git-accounts/${gitAccountId}/repositories`);

export const gitRepositoriesQuery = (projectId: string, gitAccountId: string) =>
  queryOptions({
    queryKey: gitAccountKeys.repositories(projectId, gitAccountId),
    queryFn: () => listGitRepositories(projectId, gitAccountId),
    select: (d) => [...d.repositories].sort((a, b) => a.fullName.localeCompare(b.fullName, undefined, { sensitivity: 'base' })),
    staleTime: 60_000,
  });

export const useGitRepositories = (projectId: string, gitAccountId: string | null | undefined) =>
  useQuery({ ...gitRepositoriesQuery(projectId, gitAccountId ?? ''), enabled: Boolean(projectId && gitAccountId) });
