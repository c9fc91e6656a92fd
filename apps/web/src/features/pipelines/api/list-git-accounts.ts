import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GitAccount } from '@gantry/contracts';
import { http } from '../../../api/http';
import { base, gitKeys } from './keys';

/** listGitAccounts, for the pipeline form (same key and answer as the Settings Git tab). */
export const listGitAccounts = (projectId: string) => http.get<{ gitAccounts: GitAccount[] }>(`${base(projectId)}/git-accounts`);

export const gitAccountsQuery = (projectId: string) =>
  queryOptions({
    queryKey: gitKeys.list(projectId),
    queryFn: () => listGitAccounts(projectId),
    select: (d) => [...d.gitAccounts].sort((a, b) => a.accountName.localeCompare(b.accountName, undefined, { sensitivity: 'base' })),
  });

export const useGitAccounts = (projectId: string) => useQuery({ ...gitAccountsQuery(projectId), enabled: Boolean(projectId) });
