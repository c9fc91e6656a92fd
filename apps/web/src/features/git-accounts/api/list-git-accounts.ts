import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GitAccount } from '@gantry/contracts';
import { http } from '../../../api/http';
import { gitAccountKeys } from './keys';

export const listGitAccounts = (projectId: string) => http.get<{ gitAccounts: GitAccount[] }>(`/ms-ap/projects/${projectId}/git-accounts`);

export const gitAccountsQuery = (projectId: string) =>
  queryOptions({
    queryKey: gitAccountKeys.list(projectId),
    queryFn: () => listGitAccounts(projectId),
    select: (d) => [...d.gitAccounts].sort((a, b) => a.accountName.localeCompare(b.accountName, undefined, { sensitivity: 'base' })),
  });

export const useGitAccounts = (projectId: string) => useQuery({ ...gitAccountsQuery(projectId), enabled: Boolean(projectId) });
