import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { notificationSettingsKeys } from './keys';

const base = (projectId: string) => `/ms-notification/projects/${projectId}/users`;

export const useNotificationSubscribers = (projectId: string) =>
  useQuery({
    queryKey: notificationSettingsKeys.subscribers(projectId),
    queryFn: () => http.get<{ users: { userId: string }[] }>(base(projectId)),
    select: (d) => d.users.map((u) => u.userId),
  });

/** The signed-in user subscribes to (true) or unsubscribes from (false) all notifications of the project. */
export function useSetSubscribed(projectId: string, userId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (subscribed: boolean) => (subscribed ? http.post<OkBody>(`${base(projectId)}/${userId}`) : http.delete<OkBody>(`${base(projectId)}/${userId}`)),
    onSuccess: () => qc.invalidateQueries({ queryKey: notificationSettingsKeys.subscribers(projectId) }),
  });
}
