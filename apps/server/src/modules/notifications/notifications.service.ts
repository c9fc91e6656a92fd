import { integrationMessages, notificationPath, type AddIntegrationBody, type Integration, type Notification } from '@gantry/contracts';
import { Conflict, Forbidden, NotFound, Validation } from '../../platform/errors.js';
import type { Realtime } from '../../platform/realtime.js';
import type { SecretBox } from '../../platform/secrets.js';
import { slackEscape, slackLink } from '../../integrations/slack/slack-webhook.js';
import type { NotificationsStore } from './notifications.store.js';
import type { SlackDelivery } from './notifications.slack.js';

const LIST_LIMIT = 100;
const buildWord: Record<string, string> = { SUCCEEDED: 'succeeded', FAILED: 'failed', ABORTED: 'was stopped' };

/** Something that happened in a project, told to its subscribed members (drawer) and its Slack channel. */
export interface ProjectEvent {
  projectId: string;
  /** Who started it (a user id), or null for Gantry itself. */
  authorId: string | null;
  message: string;
  entityType: Notification['entityType'];
  itemId: string;
  version?: string | null;
}

export interface DeploymentFinished {
  projectId: string;
  stageId: string;
  stageName: string;
  kind: 'DEPLOY' | 'PLAN_APPLY' | 'UNDEPLOY' | 'UNDEPLOY_RESOURCE';
  resourceName?: string | null;
  succeeded: boolean;
  status: string;
  triggeredBy: string | null;
}

export interface ServiceDeployed {
  projectId: string;
  /** The service's name (its page is /kubernetes/services/{name}). */
  serviceName: string;
  succeeded: boolean;
  /** The image tag deployed, when known. */
  version?: string | null;
  triggeredBy: string | null;
}

export function deploymentMessage(d: Pick<DeploymentFinished, 'kind' | 'stageName' | 'resourceName' | 'succeeded' | 'status'>): string {
  const what =
    d.kind === 'UNDEPLOY'
      ? `Undeploy of ${d.stageName}`
      : d.kind === 'UNDEPLOY_RESOURCE'
        ? `Undeploy of ${d.resourceName ?? 'a resource'} in ${d.stageName}`
        : `Deployment of ${d.stageName}`;
  return `${what} ${d.succeeded ? 'succeeded' : `failed (${d.status})`}`;
}

export function createNotificationsService(deps: {
  store: NotificationsStore;
  realtime: Realtime;
  secrets: SecretBox;
  slack: SlackDelivery;
  /** The ids of a project's members who can receive its notifications: those who accepted their invitation. */
  memberIds: (projectId: string) => Promise<string[]>;
  userName: (userId: string | null) => Promise<string | null>;
  /** Project names by id (the projects module). */
  projectNames: (ids: string[]) => Promise<Map<string, string>>;
  /** 402 unless the project's plan includes the Slack integration. */
  assertSlackAllowed: (projectId: string) => Promise<void>;
  /** Refuses a URL the server may not reach (OUTBOUND_NETWORK). */
  assertReachable: (url: URL) => Promise<void>;
  baseUrl: () => string;
}) {
  const { store } = deps;

  async function subscribers(projectId: string) {
    const [members, optedOut] = await Promise.all([deps.memberIds(projectId), store.optedOut(projectId)]);
    return members.filter((id) => !optedOut.has(id));
  }

  /** Every subscribed member gets a drawer entry; the project's Slack channel a message linking back to Gantry. */
  async function notify(e: ProjectEvent) {
    const author = (await deps.userName(e.authorId)) ?? 'Gantry';
    const recipients = await subscribers(e.projectId);
    await store.insertMany(
      recipients.map((userId) => ({
        userId,
        projectId: e.projectId,
        author,
        message: e.message,
        entityType: e.entityType,
        itemId: e.itemId,
        version: e.version ?? null,
      })),
    );
    if (recipients.length) deps.realtime.toProject(e.projectId, 'notification', { message: e.message });
    const projectName = (await deps.projectNames([e.projectId])).get(e.projectId) ?? '';
    const link = deps.baseUrl() + notificationPath({ entityType: e.entityType, itemId: e.itemId, version: e.version ?? null });
    await deps.slack.enqueue(e.projectId, { text: `${slackLink(link, e.message)}\n_${slackEscape(projectName)} · ${slackEscape(author)}_` });
  }

  const toIntegration = (r: { type: 'slack'; webhookHost: string; createdAt: Date }): Integration => ({
    type: r.type,
    webhookHost: r.webhookHost,
    createdAt: r.createdAt.toISOString(),
  });

  return {
    async list(userId: string): Promise<Notification[]> {
      const rows = await store.forUser(userId, LIST_LIMIT);
      const names = await deps.projectNames([...new Set(rows.map((n) => n.projectId))]);
      return rows.flatMap((n) => {
        const projectName = names.get(n.projectId);
        return projectName === undefined
          ? []
          : [
              {
                id: n.id,
                author: n.author,
                message: n.message,
                isRead: n.isRead,
                timestamp: n.createdAt.toISOString(),
                projectId: n.projectId,
                projectName,
                entityType: n.entityType,
                itemId: n.itemId,
                version: n.version,
              },
            ];
      });
    },
    async markRead(userId: string, projectId: string, id: string) {
      if (!(await store.markRead(userId, projectId, id))) throw new NotFound('Notification not found');
    },
    markAllRead: (userId: string, projectId: string) => store.markAllRead(userId, projectId).then(() => undefined),

    notify,

    /** A finished build; the drawer and Slack link to the build page. */
    async buildFinished(b: {
      projectId: string;
      pipelineId: string;
      pipelineName: string;
      number: number;
      status: string;
      branch: string;
      triggeredBy: string | null;
    }) {
      const word = buildWord[b.status];
      if (!word) return;
      await notify({
        projectId: b.projectId,
        authorId: b.triggeredBy,
        message: `Build #${b.number} of ${b.pipelineName} on ${b.branch} ${word}`,
        entityType: 'PIPELINE',
        itemId: b.pipelineId,
        version: String(b.number),
      });
    },

    /** A finished deployment or undeploy of an environment (entityType STAGE: opens the environment). */
    deploymentFinished: (d: DeploymentFinished) =>
      notify({ projectId: d.projectId, authorId: d.triggeredBy, message: deploymentMessage(d), entityType: 'STAGE', itemId: d.stageId }),

    /** A finished deploy of a Kubernetes service (the services module calls it); opens the service. */
    serviceDeployed: (s: ServiceDeployed) =>
      notify({
        projectId: s.projectId,
        authorId: s.triggeredBy,
        message: `Service ${s.serviceName}${s.version ? ` (${s.version})` : ''} ${s.succeeded ? 'deployed' : 'failed to deploy'}`,
        entityType: 'SERVICE',
        itemId: s.serviceName,
        version: s.version ?? null,
      }),

    async integrations(projectId: string): Promise<Integration[]> {
      await deps.assertSlackAllowed(projectId);
      return (await store.integrations(projectId)).map(toIntegration);
    },
    async addIntegration(projectId: string, body: AddIntegrationBody & { type: 'slack' }): Promise<Integration> {
      await deps.assertSlackAllowed(projectId);
      const url = new URL(body.webhookUrl);
      const badUrl = () => new Validation(integrationMessages.badUrl, { webhookUrl: [integrationMessages.badUrl] });
      await deps.assertReachable(url).catch(() => {
        throw badUrl();
      });
      if (await store.integration(projectId, body.type)) throw new Conflict(integrationMessages.onlyOne);
      // The hello goes out now: a hook that answers nothing or that Slack refuses (404 no_service, 403 invalid_token…)
      // is the spec's 'Check your url again', not an integration that would drop every message. Rate limited or
      // failing (429, 5xx), the hook exists: it is kept and the hello queued like any message.
      const hello = { text: `Gantry will post this project's builds, deployments and service deploys here.` };
      const tried = await deps.slack.post(url.href, hello);
      if (tried.kind === 'rejected' || (tried.kind === 'transient' && tried.unreachable)) throw badUrl();
      const row = await store.insertIntegration({ projectId, type: body.type, webhookUrlSealed: deps.secrets.seal(url.href), webhookHost: url.host });
      if (!row) throw new Conflict(integrationMessages.onlyOne);
      if (tried.kind !== 'sent') await deps.slack.enqueue(projectId, hello);
      return toIntegration(row);
    },
    async removeIntegration(projectId: string, type: 'slack') {
      if (!(await store.deleteIntegration(projectId, type))) throw new NotFound('This project has no Slack integration');
    },

    /** The members who receive the project's notifications. */
    subscribers: async (projectId: string) => (await subscribers(projectId)).map((userId) => ({ userId })),
    /** A member subscribes or unsubscribes themselves (nobody else's choice). */
    async setSubscribed(projectId: string, actorId: string, userId: string, subscribed: boolean) {
      if (actorId !== userId) throw new Forbidden('You can only change your own subscription');
      if (subscribed) await store.optIn(projectId, userId);
      else await store.optOut(projectId, userId);
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
