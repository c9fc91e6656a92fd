import type { FastifyBaseLogger } from 'fastify';
import type { Jobs } from '../../platform/jobs.js';
import type { SecretBox } from '../../platform/secrets.js';
import { postToSlack, type SlackMessage } from '../../integrations/slack/slack-webhook.js';
import type { NotificationsStore } from './notifications.store.js';

export const SLACK_QUEUE = 'notifications.slack';
/** How often one message waits out Slack's rate limit before it is given up. */
const MAX_RATE_LIMITED = 10;

export interface SlackJob {
  projectId: string;
  message: SlackMessage;
  /** How many times Slack has answered 429 to this message. */
  rateLimited?: number;
}

/**
 * Slack messages of a project, from a durable pg-boss job (never from the request or run that caused them).
 * The webhook URL is read, unsealed, when the job runs: a removed integration sends nothing more. A 429 is
 * waited out as Slack asks (the same message queued again to start after Retry-After); a 5xx or network
 * failure is retried with pg-boss's backoff; any other refusal is logged and dropped.
 */
export function createSlackDelivery(deps: {
  store: NotificationsStore;
  secrets: SecretBox;
  jobs: Jobs;
  fetch: typeof fetch;
  /** Whether the project's plan includes the Slack integration now. */
  allowed: (projectId: string) => Promise<boolean>;
  log: FastifyBaseLogger;
}) {
  const { store, jobs, log } = deps;
  return {
    /** Posts to a webhook at once, from the request (the hello to a hook being added, before it is kept). */
    post: (url: string, message: SlackMessage) => postToSlack(deps.fetch, url, message),
    /** Queues the message when the project has a Slack integration. */
    async enqueue(projectId: string, message: SlackMessage) {
      if (!(await store.integration(projectId, 'slack'))) return;
      await jobs.send<SlackJob>(SLACK_QUEUE, { projectId, message });
    },
    async deliver(job: SlackJob) {
      const integration = await store.integration(job.projectId, 'slack');
      if (!integration || !(await deps.allowed(job.projectId))) return;
      const result = await postToSlack(deps.fetch, deps.secrets.open(integration.webhookUrlSealed), job.message);
      if (result.kind === 'sent') return;
      if (result.kind === 'rate-limited') {
        const rateLimited = (job.rateLimited ?? 0) + 1;
        if (rateLimited > MAX_RATE_LIMITED) return log.warn({ projectId: job.projectId }, 'Slack kept answering 429; message dropped');
        await jobs.send<SlackJob>(SLACK_QUEUE, { ...job, rateLimited }, { startAfter: result.retryAfterSeconds });
        return;
      }
      if (result.kind === 'transient') throw new Error(`Slack webhook failed: ${result.reason}`); // pg-boss retries with backoff
      log.warn({ projectId: job.projectId, reason: result.reason }, 'Slack refused a message; it is not sent again');
    },
  };
}
export type SlackDelivery = ReturnType<typeof createSlackDelivery>;
