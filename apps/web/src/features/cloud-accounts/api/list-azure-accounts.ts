import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AzureAccountList } from '@gantry/contracts';
import { http } from '../../../api/http';
import { cloudAccountKeys } from './keys';

/** Azure accounts: get (spec §7). Client secrets come back as '(sensitive)'. */
export const listAzureAccounts = (projectId: string) => http.get<AzureAccountList>(`/ms-aws/projects/${projectId}/azure-accounts`);

export const azureAccountsQuery = (projectId: string) =>
  queryOptions({ queryKey: cloudAccountKeys.list(projectId, 'azure'), queryFn: () => listAzureAccounts(projectId), select: (d) => d.azureAccounts });

export const useAzureAccounts = (projectId: string) => useQuery({ ...azureAccountsQuery(projectId), enabled: Boolean(projectId) });
