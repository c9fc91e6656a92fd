import { z } from 'zod';
import { InputUuid } from './common.js';

export const Notification = z.object({
  id: z.string(),
  author: z.string(),
  message: z.string(),
  isRead: z.boolean(),
  timestamp: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  entityType: z.enum(['PIPELINE', 'STAGE']),
  itemId: z.string(),
  version: z.string().nullable(),
});
export type Notification = z.infer<typeof Notification>;
export const NotificationList = z.object({ notifications: z.array(Notification) });
export const NotificationParams = z.object({ projectId: InputUuid(), notificationId: InputUuid() });

/** Spec §2.7/§9: fetched at mount, every 45 s and when the drawer opens. */
export const NOTIFICATIONS_POLL_MS = 45_000;

/** Where a notification leads (spec §2.7): a pipeline's build page, or an environment's details. */
export function notificationPath(n: Pick<Notification, 'entityType' | 'itemId' | 'version'>): string {
  return n.entityType === 'PIPELINE' ? `/pipelines/${n.itemId}/builds/${n.version ?? ''}` : `/environments/${n.itemId}/details`;
}
