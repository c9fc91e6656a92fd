import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddIntegrationBody,
  Integration,
  IntegrationList,
  IntegrationParams,
  NotificationList,
  NotificationParams,
  NotificationUserParams,
  NotificationUsers,
  ProjectIdParams,
  OkBody,
} from '@gantry/contracts';
import { currentUser, type Guards } from '../../platform/auth.js';
import type { NotificationsService } from './notifications.service.js';

const ok = { ok: true as const };

/**
 * The drawer (every user's own notifications), a project's integrations (Slack: reads need 'view' and the
 * plan's slackIntegration, 402 otherwise; add and remove need 'change') and its subscriptions (a member
 * subscribes or unsubscribes themselves).
 */
export function notificationsRoutes(deps: { notifications: NotificationsService; guards: Guards }): FastifyPluginAsyncZod {
  const { notifications, guards } = deps;
  return async (app) => {
    const tags = ['notifications'];
    const view = guards.project('view');
    const change = guards.project('change');
    app.get('/notifications', { preHandler: guards.authenticate, schema: { tags, response: { 200: NotificationList } } }, async (req) => ({
      notifications: await notifications.list(currentUser(req).id),
    }));
    app.put(
      '/projects/:projectId/notifications/:notificationId/read',
      { preHandler: view, schema: { tags, params: NotificationParams, response: { 200: OkBody } } },
      async (req) => {
        await notifications.markRead(currentUser(req).id, req.params.projectId, req.params.notificationId);
        return ok;
      },
    );
    app.put(
      '/projects/:projectId/notifications/read',
      { preHandler: view, schema: { tags, params: ProjectIdParams, response: { 200: OkBody } } },
      async (req) => {
        await notifications.markAllRead(currentUser(req).id, req.params.projectId);
        return ok;
      },
    );

    app.get(
      '/projects/:projectId/integrations',
      { preHandler: view, schema: { tags, params: ProjectIdParams, response: { 200: IntegrationList } } },
      async (req) => ({
        integrations: await notifications.integrations(req.params.projectId),
      }),
    );
    app.post(
      '/projects/:projectId/integrations',
      { preHandler: change, schema: { tags, params: ProjectIdParams, body: AddIntegrationBody, response: { 201: Integration } } },
      async (req, reply) => reply.status(201).send(await notifications.addIntegration(req.params.projectId, req.body)),
    );
    app.delete(
      '/projects/:projectId/integrations/:type',
      { preHandler: change, schema: { tags, params: IntegrationParams, response: { 200: OkBody } } },
      async (req) => {
        await notifications.removeIntegration(req.params.projectId, req.params.type);
        return ok;
      },
    );

    app.get(
      '/projects/:projectId/users',
      { preHandler: view, schema: { tags, params: ProjectIdParams, response: { 200: NotificationUsers } } },
      async (req) => ({
        users: await notifications.subscribers(req.params.projectId),
      }),
    );
    for (const [method, subscribed] of [
      ['post', true],
      ['delete', false],
    ] as const) {
      app[method](
        '/projects/:projectId/users/:userId',
        { preHandler: view, schema: { tags, params: NotificationUserParams, response: { 200: OkBody } } },
        async (req) => {
          await notifications.setSubscribed(req.params.projectId, currentUser(req).id, req.params.userId, subscribed);
          return ok;
        },
      );
    }
  };
}
