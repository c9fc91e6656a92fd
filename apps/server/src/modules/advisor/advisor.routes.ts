import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AdvisorQuery, AdvisorResult, ProjectIdParams } from '@gantry/contracts';
import type { Guards } from '../../platform/auth.js';
import type { AdvisorService } from './advisor.service.js';

/** Waste advisor statistics under /ms-cloud-cost-optimizer. */
export function advisorRoutes(deps: { advisor: AdvisorService; guards: Guards }): FastifyPluginAsyncZod {
  const { advisor, guards } = deps;
  return async (app) => {
    const tags = ['waste advisor'];
    app.get(
      '/projects/:projectId/advisor',
      { preHandler: guards.project('view'), schema: { tags, params: ProjectIdParams, querystring: AdvisorQuery, response: { 200: AdvisorResult } } },
      (req) => advisor.get(req.params.projectId, req.query),
    );
    // computing costs CloudWatch money, so it is a change: members with write access ask for it
    app.post(
      '/projects/:projectId/advisor',
      { preHandler: guards.project('change'), schema: { tags, params: ProjectIdParams, body: AdvisorQuery, response: { 200: AdvisorResult } } },
      (req) => advisor.refresh(req.params.projectId, req.body),
    );
  };
}
