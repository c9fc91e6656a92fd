import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdminProjectPlan, ProjectIdParams, SetProjectPlanBody } from '@gantry/contracts';
import { currentUser, type Guards } from '../../platform/auth.js';
import type { BillingAdminService } from './billing-admin.service.js';

/** The instance admin's plans page (the first account; others get 403). */
export function billingAdminRoutes(deps: { admin: BillingAdminService; guards: Guards }): FastifyPluginAsyncZod {
  const { admin, guards } = deps;
  return async (app) => {
    const tags = ['billing'];
    // before the body's validation, as every route's guard (app.ts)
    app.addHook('preValidation', async (req) => {
      await guards.authenticate(req);
      await admin.assertInstanceAdmin(currentUser(req).id);
    });
    app.get('/admin/projects', { schema: { tags, response: { 200: z.object({ projects: z.array(AdminProjectPlan) }) } } }, async () => ({
      projects: await admin.projects(),
    }));
    app.put(
      '/admin/projects/:projectId/plan',
      { schema: { tags, params: ProjectIdParams, body: SetProjectPlanBody, response: { 200: AdminProjectPlan } } },
      (req) => admin.setPlan(req.params.projectId, req.body.planId),
    );
  };
}
