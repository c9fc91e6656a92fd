import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AwsAccount, AwsAccountBody, UpdateAwsAccountBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { cloudAccountKeys } from './keys';

/** AWS accounts: add, update (spec §7). The server first assumes the role; 400 carries the spec's message. */
export const addAwsAccount = (projectId: string, body: AwsAccountBody) => http.post<AwsAccount>(`/ms-aws/projects/${projectId}/aws-accounts`, body);
export const updateAwsAccount = (projectId: string, awsAccountId: string, body: UpdateAwsAccountBody) =>
  http.put<AwsAccount>(`/ms-aws/projects/${projectId}/aws-accounts/${awsAccountId}`, body);

export type SaveAwsAccountInput = { awsAccountId?: undefined; body: AwsAccountBody } | { awsAccountId: string; body: UpdateAwsAccountBody };

export function useSaveAwsAccount(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: SaveAwsAccountInput) =>
      input.awsAccountId ? updateAwsAccount(projectId, input.awsAccountId, input.body) : addAwsAccount(projectId, input.body as AwsAccountBody),
    onSuccess: () => qc.invalidateQueries({ queryKey: cloudAccountKeys.list(projectId, 'aws') }),
  });
}
