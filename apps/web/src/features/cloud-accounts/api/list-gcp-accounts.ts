import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GcpAccountList } from '@gantry/contracts';
import { http } from '../../../api/http';
import { cloudAccountKeys } from './keys';

/** GCP accounts: get (spec §7). */
export const listGcpAccounts = (projectId: string) => http.get<GcpAccountList>(`/ms-aws/projects/${projectId}/gcp-accounts`);

export const gcpAccountsQuery = (projectId: string) =>
  queryOptions({ queryKey: cloudAccountKeys.list(projectId, 'gcp'), queryFn: () => listGcpAccounts(projectId), select: (d) => d.gcpAccounts });

export const useGcpAccounts = (projectId: string) => useQuery({ ...gcpAccountsQuery(projectId), enabled: Boolean(projectId) });
