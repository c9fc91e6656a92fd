/**
 * Notifications of the signed-in user (spec §2.7). The notifications API (/ms-notification) arrives
 * in a later release; until then the list is empty and nothing is fetched.
 * When it exists: fetch at mount, every 45 seconds and when the drawer opens.
 */
export interface NotificationItem {
  id: string;
  author: string;
  message: string;
  isRead: boolean;
  timestamp: string;
  projectId: string;
  projectName?: string;
  entityType: 'PIPELINE' | 'STAGE';
  itemId: string;
  version?: string;
}

export const NOTIFICATIONS_POLL_MS = 45_000;

export function useNotifications(): { items: NotificationItem[]; loading: boolean } {
  return { items: [], loading: false };
}

export function useUnreadCount(): number {
  return useNotifications().items.filter((n) => !n.isRead).length;
}
