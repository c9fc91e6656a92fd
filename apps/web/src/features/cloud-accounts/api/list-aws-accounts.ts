import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AwsAccountList } from '@gantry/contracts';
import { http } from '../../../api/http';
import { cloudAccountKeys } from './keys';

/** AWS accounts: get (spec §7). External ids come back as '(sensitive)'. */
export const listAwsAccounts = (projectId: string) => http.get<AwsAccountList>(`/ms-aws/projects/${projectId}/aws-accounts`);

export const awsAccountsQuery = (projectId: string) =>
  queryOptions({ queryKey: cloudAccountKeys.list(projectId, 'aws'), queryFn: () => listAwsAccounts(projectId), select: (d) => d.awsAccounts });

export const useAwsAccounts = (projectId: string) => useQuery({ ...awsAccountsQuery(projectId), enabled: Boolean(projectId) });
