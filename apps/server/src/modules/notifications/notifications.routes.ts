import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NotificationList, NotificationParams, ProjectIdParams, OkBody } from '@gantry/contracts';
import { currentUser, type Guards } from '../../platform/auth.js';
import type { NotificationsService } from './notifications.service.js';

const ok = { ok: true as const };

export function notificationsRoutes(deps: { notifications: NotificationsService; guards: Guards }): FastifyPluginAsyncZod {
  const { notifications, guards } = deps;
  return async (app) => {
    const tags = ['notifications'];
    app.get('/notifications', { preHandler: guards.authenticate, schema: { tags, response: { 200: NotificationList } } }, async (req) => ({
      notifications: await notifications.list(currentUser(req).id),
    }));
    app.put(
      '/projects/:projectId/notifications/:notificationId/read',
      { preHandler: guards.project('view'), schema: { tags, params: NotificationParams, response: { 200: OkBody } } },
      async (req) => {
        await notifications.markRead(currentUser(req).id, req.params.projectId, req.params.notificationId);
        return ok;
      },
    );
    app.put(
      '/projects/:projectId/notifications/read',
      { preHandler: guards.project('view'), schema: { tags, params: ProjectIdParams, response: { 200: OkBody } } },
      async (req) => {
        await notifications.markAllRead(currentUser(req).id, req.params.projectId);
        return ok;
      },
    );
  };
}
