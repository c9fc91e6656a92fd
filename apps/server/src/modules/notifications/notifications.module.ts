import { defineModule, job } from '../../platform/module.js';
import { assertReachable, guardedFetch } from '../../integrations/outbound/outbound.js';
import type { UsersService } from '../users/users.port.js';
import type { ProjectsService } from '../projects/projects.port.js';
import type { BillingService } from '../billing/billing.port.js';
import { createNotificationsStore } from './notifications.store.js';
import { createNotificationsService } from './notifications.service.js';
import { createSlackDelivery, SLACK_QUEUE, type SlackJob } from './notifications.slack.js';
import { notificationsRoutes } from './notifications.routes.js';

/**
 * The notifications drawer, the project's Slack integration and who is subscribed. Finished builds and
 * deployments arrive through `runFinished`; service deploys call the api (`serviceDeployed`).
 */
export const notificationsModule = defineModule({
  name: 'notifications',
  create(platform, needs: { users: UsersService; projects: ProjectsService; billing: BillingService }, overrides: { fetch?: typeof fetch }) {
    const network = platform.config.OUTBOUND_NETWORK;
    const store = createNotificationsStore(platform.db);
    const slack = createSlackDelivery({
      store,
      secrets: platform.secrets,
      jobs: platform.jobs,
      fetch: guardedFetch(network, overrides.fetch ?? fetch),
      allowed: async (projectId) => (await needs.billing.limitations(projectId)).slackIntegration === true,
      log: platform.log,
    });
    const notifications = createNotificationsService({
      store,
      slack,
      realtime: platform.realtime,
      secrets: platform.secrets,
      // an invitee who has not accepted yet (FORCE_CHANGE_PASSWORD: pending, spec §4) cannot sign in to read them
      memberIds: async (projectId) => (await needs.projects.members(projectId)).filter((m) => m.status !== 'FORCE_CHANGE_PASSWORD').map((m) => m.id),
      userName: async (userId) => {
        const [u] = userId ? await needs.users.byIds([userId]) : [];
        return u ? [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email : null;
      },
      projectNames: (ids) => needs.projects.names(ids),
      assertSlackAllowed: (projectId) => needs.billing.assertFeature(projectId, 'slackIntegration'),
      assertReachable: (url) => assertReachable(url, network),
      baseUrl: platform.baseUrl,
    });
    platform.hooks.runFinished.on(async (run) => {
      if (run.kind === 'build') await notifications.buildFinished(run);
      else await notifications.deploymentFinished({ ...run, kind: run.deploymentKind });
    });
    return {
      api: notifications,
      routes: [{ prefix: '/ms-notification', plugin: notificationsRoutes({ notifications, guards: platform.guards }) }],
      jobs: [job<SlackJob>(SLACK_QUEUE, (j) => slack.deliver(j))],
    };
  },
});
