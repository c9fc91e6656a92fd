import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AzureAccount, AzureAccountBody, UpdateAzureAccountBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { cloudAccountKeys } from './keys';

export type AzureAccountKey = { tenantId: string; subscriptionId: string };
const path = (projectId: string, k: AzureAccountKey) =>
  `/ms-aws/projects/${projectId}/azure-accounts/${encodeURIComponent(k.tenantId)}/${encodeURIComponent(k.subscriptionId)}`;

/** Azure accounts: add, update by tenantId and subscriptionId (spec §7). The server first gets a token from Entra ID. */
export const addAzureAccount = (projectId: string, body: AzureAccountBody) => http.post<AzureAccount>(`/ms-aws/projects/${projectId}/azure-accounts`, body);
export const updateAzureAccount = (projectId: string, key: AzureAccountKey, body: UpdateAzureAccountBody) => http.put<AzureAccount>(path(projectId, key), body);

export type SaveAzureAccountInput = { key?: undefined; body: AzureAccountBody } | { key: AzureAccountKey; body: UpdateAzureAccountBody };

export function useSaveAzureAccount(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveAzureAccountInput) =>
      input.key ? updateAzureAccount(projectId, input.key, input.body) : addAzureAccount(projectId, input.body as AzureAccountBody),
    onSuccess: () => qc.invalidateQueries({ queryKey: cloudAccountKeys.list(projectId, 'azure') }),
  });
}
