import type { AdminProjectPlan } from '@gantry/contracts';
import type { ProjectsService } from '../projects/projects.port.js';
import type { UsersService } from '../users/users.port.js';
import { Forbidden } from '../../platform/errors.js';
import type { BillingService } from './billing.service.js';

/** The instance admin's plans page: every project with its plan, and setting one (what `gantry plans set` does). */
export function createBillingAdminService(deps: { billing: BillingService; projects: ProjectsService; users: UsersService }) {
  const { billing, projects, users } = deps;
  return {
    async assertInstanceAdmin(userId: string) {
      if (!(await users.me(userId)).isInstanceAdmin) throw new Forbidden('Only the instance admin can manage plans');
    },

    async projects(): Promise<AdminProjectPlan[]> {
      const all = await projects.all();
      const ownerIds = [...new Set(all.flatMap((p) => p.ownerIds))];
      const emails = new Map((await users.byIds(ownerIds)).map((u) => [u.id, u.email]));
      return Promise.all(
        all.map(async (p) => {
          const sub = await billing.subscription(p.id);
          return {
            id: p.id,
            name: p.name,
            createdAt: p.createdAt.toISOString(),
            owners: p.ownerIds.map((id) => emails.get(id)).filter((e): e is string => !!e),
            plan: { id: sub.plan.id, name: sub.plan.name },
            status: sub.status,
            expirationDate: sub.expirationDate,
          };
        }),
      );
    },

    async setPlan(projectId: string, planId: string) {
      await billing.subscription(projectId); // 404 for a project that does not exist
      await billing.setPlan(projectId, planId.toUpperCase());
      return (await this.projects()).find((p) => p.id === projectId)!;
    },
  };
}
export type BillingAdminService = ReturnType<typeof createBillingAdminService>;
