import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NOTIFICATIONS_POLL_MS, type Notification } from '@gantry/contracts';
import { http } from '../../api/http';
import { useIsLoggedIn } from '../../api/session';
import { markAllRead } from './mark-all-read';

/** Notifications of the signed-in user (spec §2.7): fetched at mount, every 45 seconds and when the drawer opens. */
export type NotificationItem = Notification;

const key = ['notifications'] as const;

export function useNotifications(): { items: NotificationItem[]; loading: boolean; refetch: () => void } {
  const loggedIn = useIsLoggedIn();
  const q = useQuery({
    queryKey: key,
    queryFn: () => http.get<{ notifications: Notification[] }>('/ms-notification/notifications'),
    refetchInterval: NOTIFICATIONS_POLL_MS,
    enabled: loggedIn,
  });
  return { items: q.data?.notifications ?? [], loading: q.isPending, refetch: () => void q.refetch() };
}

export function useUnreadCount(): number {
  return useNotifications().items.filter((n) => !n.isRead).length;
}

export function useMarkNotificationRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (n: Pick<Notification, 'id' | 'projectId'>) => http.put(`/ms-notification/projects/${n.projectId}/notifications/${n.id}/read`),
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useMarkAllNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (projectIds: string[]) => markAllRead(projectIds, (url) => http.put(url)),
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}
