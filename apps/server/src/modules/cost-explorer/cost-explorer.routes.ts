import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CostDashboard, OkBody, ProjectIdParams, Report, ReportBody, ReportSendResult } from '@gantry/contracts';
import type { Guards } from '../../platform/auth.js';
import type { CostExplorerService } from './cost-explorer.service.js';

const ReportParams = ProjectIdParams.extend({ reportId: z.string().uuid() });

/** The cost dashboard and the cost reports under /ms-cloud-cost-optimizer. */
export function costExplorerRoutes(deps: { cost: CostExplorerService; guards: Guards }): FastifyPluginAsyncZod {
  const { cost, guards } = deps;
  const view = guards.project('view');
  const change = guards.project('change');
  return async (app) => {
    const tags = ['cost explorer'];
    app.get('/projects/:projectId/cost', { preHandler: view, schema: { tags, params: ProjectIdParams, response: { 200: CostDashboard } } }, (req) =>
      cost.dashboard(req.params.projectId),
    );
    // Cost Explorer requests cost money, so asking for fresh figures is a change
    app.post('/projects/:projectId/cost/refresh', { preHandler: change, schema: { tags, params: ProjectIdParams, response: { 200: CostDashboard } } }, (req) =>
      cost.refresh(req.params.projectId),
    );

    const reportTags = ['cost reports'];
    app.get(
      '/projects/:projectId/reports',
      { preHandler: view, schema: { tags: reportTags, params: ProjectIdParams, response: { 200: z.object({ reports: z.array(Report) }) } } },
      async (req) => ({ reports: await cost.listReports(req.params.projectId) }),
    );
    app.post(
      '/projects/:projectId/reports',
      { preHandler: change, schema: { tags: reportTags, params: ProjectIdParams, body: ReportBody, response: { 201: Report } } },
      async (req, reply) => reply.status(201).send(await cost.createReport(req.params.projectId, req.body)),
    );
    app.get(
      '/projects/:projectId/reports/:reportId',
      { preHandler: view, schema: { tags: reportTags, params: ReportParams, response: { 200: Report } } },
      (req) => cost.getReport(req.params.projectId, req.params.reportId),
    );
    app.put(
      '/projects/:projectId/reports/:reportId',
      { preHandler: change, schema: { tags: reportTags, params: ReportParams, body: ReportBody, response: { 200: Report } } },
      (req) => cost.updateReport(req.params.projectId, req.params.reportId, req.body),
    );
    app.delete(
      '/projects/:projectId/reports/:reportId',
      { preHandler: change, schema: { tags: reportTags, params: ReportParams, response: { 200: OkBody } } },
      (req) => cost.deleteReport(req.params.projectId, req.params.reportId),
    );
    app.post(
      '/projects/:projectId/reports/:reportId/send',
      { preHandler: change, schema: { tags: reportTags, params: ReportParams, response: { 200: ReportSendResult } } },
      (req) => cost.sendReport(req.params.projectId, req.params.reportId),
    );
  };
}
