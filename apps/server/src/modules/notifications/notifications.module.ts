import { defineModule } from '../../platform/module.js';
import type { UsersService } from '../users/users.port.js';
import type { ProjectsService } from '../projects/projects.port.js';
import { createNotificationsStore } from './notifications.store.js';
import { createNotificationsService } from './notifications.service.js';
import { notificationsRoutes } from './notifications.routes.js';

/** The notifications drawer: every project member hears of finished builds (runFinished). */
export const notificationsModule = defineModule({
  name: 'notifications',
  create(platform, needs: { users: UsersService; projects: ProjectsService }) {
    const notifications = createNotificationsService({
      store: createNotificationsStore(platform.db),
      realtime: platform.realtime,
      memberIds: async (projectId) => (await needs.projects.members(projectId)).map((m) => m.id),
      userName: async (userId) => {
        const [u] = userId ? await needs.users.byIds([userId]) : [];
        return u ? [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email : null;
      },
      projectNames: (ids) => needs.projects.names(ids),
    });
    platform.hooks.runFinished.on(async (run) => {
      if (run.kind === 'build') await notifications.buildFinished(run);
    });
    return { api: notifications, routes: [{ prefix: '/ms-notification', plugin: notificationsRoutes({ notifications, guards: platform.guards }) }] };
  },
});
