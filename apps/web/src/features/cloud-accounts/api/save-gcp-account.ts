import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GcpAccount, GcpAccountBody, UpdateGcpAccountBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { cloudAccountKeys } from './keys';

/** GCP accounts: add, update (spec §7). The server first impersonates the service account. */
export const addGcpAccount = (projectId: string, body: GcpAccountBody) => http.post<GcpAccount>(`/ms-aws/projects/${projectId}/gcp-accounts`, body);
export const updateGcpAccount = (projectId: string, gcpProjectId: string, body: UpdateGcpAccountBody) =>
  http.put<GcpAccount>(`/ms-aws/projects/${projectId}/gcp-accounts/${encodeURIComponent(gcpProjectId)}`, body);

export type SaveGcpAccountInput = { gcpProjectId?: undefined; body: GcpAccountBody } | { gcpProjectId: string; body: UpdateGcpAccountBody };

export function useSaveGcpAccount(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveGcpAccountInput) =>
      input.gcpProjectId ? updateGcpAccount(projectId, input.gcpProjectId, input.body) : addGcpAccount(projectId, input.body as GcpAccountBody),
    onSuccess: () => qc.invalidateQueries({ queryKey: cloudAccountKeys.list(projectId, 'gcp') }),
  });
}
