import { z } from 'zod';
import { InputText, InputUuid } from './common.js';

export const Notification = z.object({
  id: z.string(),
  author: z.string(),
  message: z.string(),
  isRead: z.boolean(),
  timestamp: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  entityType: z.enum(['PIPELINE', 'STAGE', 'SERVICE']),
  itemId: z.string(),
  version: z.string().nullable(),
});
export type Notification = z.infer<typeof Notification>;
export const NotificationList = z.object({ notifications: z.array(Notification) });
export const NotificationParams = z.object({ projectId: InputUuid(), notificationId: InputUuid() });

/** Spec §2.7/§9: fetched at mount, every 45 s and when the drawer opens. */
export const NOTIFICATIONS_POLL_MS = 45_000;

/** Where a notification leads (spec §2.7): a pipeline's build page, an environment's details, or a Kubernetes service. */
export function notificationPath(n: Pick<Notification, 'entityType' | 'itemId' | 'version'>): string {
  if (n.entityType === 'PIPELINE') return `/pipelines/${n.itemId}/builds/${n.version ?? ''}`;
  if (n.entityType === 'SERVICE') return `/kubernetes/services/${encodeURIComponent(n.itemId)}`;
  return `/environments/${n.itemId}/details`;
}

/** Spec §8: the Slack integration's texts. */
export const integrationMessages = {
  onlyOne: 'Only one integration is allowed. Remove your previous integration',
  badUrl: 'There was an error with your integration. Check your url again.',
  /** Not in the spec (it gives no text for an empty URL): under the field, not the add failure above. */
  webhookRequired: 'Please enter the Slack webhook URL',
  added: 'Slack integration added',
  removed: 'Slack integration removed',
  subscribed: 'You are subscribed to all notifications of this project',
  unsubscribed: 'You are unsubscribed from all notifications of this project',
} as const;

/** Spec §5: required, and a valid URL (http or https: a self-hosted chat may take plain HTTP on its own network). */
export const SlackWebhookUrl = InputText({ error: integrationMessages.webhookRequired })
  .trim()
  .min(1, integrationMessages.webhookRequired)
  .refine((s) => {
    if (!s) return true; // told by min
    try {
      return ['http:', 'https:'].includes(new URL(s).protocol);
    } catch {
      return false;
    }
  }, integrationMessages.badUrl);

export const IntegrationType = z.enum(['slack']);
export const AddIntegrationBody = z.object({ type: IntegrationType.default('slack'), webhookUrl: SlackWebhookUrl });
export type AddIntegrationBody = z.input<typeof AddIntegrationBody>;
/** The webhook URL is a secret (whoever holds it may post): only its host is ever answered. */
export const Integration = z.object({ type: IntegrationType, webhookHost: z.string(), createdAt: z.string() });
export type Integration = z.infer<typeof Integration>;
export const IntegrationList = z.object({ integrations: z.array(Integration) });
export const IntegrationParams = z.object({ projectId: InputUuid(), type: IntegrationType });

/** The members who receive the project's notifications (spec "Users on notifications"). */
export const NotificationUsers = z.object({ users: z.array(z.object({ userId: z.string() })) });
export const NotificationUserParams = z.object({ projectId: InputUuid(), userId: InputUuid() });
