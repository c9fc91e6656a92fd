import { defineModule } from '../../platform/module.js';
import type { ProjectsService } from '../projects/projects.port.js';
import type { UsersService } from '../users/users.port.js';
import type { BillingService } from './billing.port.js';
import { createBillingAdminService } from './billing-admin.service.js';
import { billingAdminRoutes } from './billing-admin.routes.js';

/** The instance admin's side of billing; a module of its own because it needs users and projects, which need billing. */
export const billingAdminModule = defineModule({
  name: 'billingAdmin',
  create(platform, needs: { billing: BillingService; users: UsersService; projects: ProjectsService }) {
    const admin = createBillingAdminService(needs);
    return { api: admin, routes: [{ prefix: '/ms-project', plugin: billingAdminRoutes({ admin, guards: platform.guards }) }] };
  },
});
