import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { cloudAccountKeys } from './keys';

/** Delete AWS, GCP, Azure account (spec §7; Azure by tenantId and subscriptionId). */
export type CloudAccountTarget =
  { provider: 'aws'; awsAccountId: string } | { provider: 'gcp'; gcpProjectId: string } | { provider: 'azure'; tenantId: string; subscriptionId: string };

const pathOf = (projectId: string, t: CloudAccountTarget) => {
  const base = `/ms-aws/projects/${projectId}`;
  if (t.provider === 'aws') return `${base}/aws-accounts/${t.awsAccountId}`;
  if (t.provider === 'gcp') return `${base}/gcp-accounts/${encodeURIComponent(t.gcpProjectId)}`;
  return `${base}/azure-accounts/${encodeURIComponent(t.tenantId)}/${encodeURIComponent(t.subscriptionId)}`;
};

export const deleteCloudAccount = (projectId: string, target: CloudAccountTarget) => http.delete<OkBody>(pathOf(projectId, target));

export function useDeleteCloudAccount(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (target: CloudAccountTarget) => deleteCloudAccount(projectId, target),
    onSuccess: (_d, target) => qc.invalidateQueries({ queryKey: cloudAccountKeys.list(projectId, target.provider) }),
  });
}
