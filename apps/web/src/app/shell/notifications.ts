import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NOTIFICATIONS_POLL_MS, type Notification } from '@gantry/contracts';
import { http } from '../../api/http';
import { useIsLoggedIn } from '../../api/session';
import { useProjectEvents, type ProjectEventHandlers } from '../../api/use-project-events';
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

/**
 * The current project's room tells of each new notification (notifications.service: `notification`): the list is
 * read again at once, on top of the spec's 45-second poll. The bell of a member watching the project counted a
 * teammate's failed build or a deploy only up to 45 s later.
 */
export const notificationEvents: ProjectEventHandlers = {
  notification: (qc) => void qc.invalidateQueries({ queryKey: key }),
};

/** Listens to the current project's notification events (once, in the shell). */
export function useNotificationUpdates(projectId: string | undefined) {
  useProjectEvents(projectId, notificationEvents);
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
