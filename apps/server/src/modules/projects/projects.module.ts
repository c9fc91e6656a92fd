import { defineModule } from '../../platform/module.js';
import type { UsersService } from '../users/users.port.js';
import type { BillingService } from '../billing/billing.port.js';
import { createProjectsStore } from './projects.store.js';
import { createProjectsService } from './projects.service.js';
import { projectListAnswer } from './projects.list-answer.js';
import { projectsRoutes, projectUsersLookupRoutes } from './projects.routes.js';

/** Projects, members and invitations; answers the platform's membership question. */
export const projectsModule = defineModule({
  name: 'projects',
  create(platform, needs: { users: UsersService; billing: BillingService }) {
    const { hooks } = platform;
    const projects = createProjectsService({
      db: platform.db,
      store: createProjectsStore(platform.db, platform.database.cache),
      users: needs.users,
      billing: needs.billing,
      mailer: platform.mailer,
      baseUrl: platform.baseUrl,
      counts: async (ids) => {
        const answers = await hooks.projectCounts.collect(ids);
        return new Map(ids.map((id) => [id, Object.assign({ stagesCount: 0, componentsCount: 0 }, ...answers.map((a) => a.get(id)))]));
      },
      deployedStages: async (projectId) => (await hooks.projectDeleteBlockers.collect(projectId)).flat(),
      memberRemoved: (_projectId, userId) => platform.realtime.disconnectUser(userId),
    });
    hooks.membership.answer((projectId, userId) => projects.permission(projectId, userId));
    const listAnswer = projectListAnswer({
      cache: platform.database.cache,
      list: projects.list,
      reads: () => [...projects.listReads, ...hooks.projectCounts.reads()],
    });
    return {
      api: projects,
      routes: [
        { prefix: '/ms-usermanagement', plugin: projectUsersLookupRoutes({ projects, guards: platform.guards }) },
        { prefix: '/ms-project', plugin: projectsRoutes({ projects, listAnswer, guards: platform.guards }) },
      ],
    };
  },
});
