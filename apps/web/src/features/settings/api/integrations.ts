import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AddIntegrationBody, Integration, OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { askIfPlanIncludes } from './get-subscription';
import { notificationSettingsKeys } from './keys';

const base = (projectId: string) => `/ms-notification/projects/${projectId}/integrations`;

export const getIntegrations = (projectId: string) => http.get<{ integrations: Integration[] }>(base(projectId));

/** The project's integrations, asked for only when its plan includes Slack (else its 402 — the Upgrade Plan button — without the request). */
export const useIntegrations = (projectId: string) => {
  const qc = useQueryClient();
  return useQuery({
    queryKey: notificationSettingsKeys.integrations(projectId),
    queryFn: () => askIfPlanIncludes(qc, projectId, 'slackIntegration', () => getIntegrations(projectId)),
    select: (d) => d.integrations,
  });
};

export function useAddIntegration(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AddIntegrationBody) => http.post<Integration>(base(projectId), body),
    onSuccess: () => qc.invalidateQueries({ queryKey: notificationSettingsKeys.integrations(projectId) }),
  });
}

export function useRemoveIntegration(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (type: Integration['type']) => http.delete<OkBody>(`${base(projectId)}/${type}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: notificationSettingsKeys.integrations(projectId) }),
  });
}
