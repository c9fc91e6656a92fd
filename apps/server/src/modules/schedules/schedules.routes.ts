import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SavingScheduleBody,
  Schedule,
  ProjectIdParams,
  OkBody,
  ScheduleActionBody,
  ScheduleActionResult,
  ScheduleStateBody,
  ScheduleRuns,
  SavingScheduleDetail,
  ResourcesQuery,
  CloudResources,
} from '@gantry/contracts';
import type { Guards } from '../../platform/auth.js';
import type { SchedulesService } from './schedules.service.js';

const ScheduleParams = ProjectIdParams.extend({ scheduleId: z.string().uuid() });

/** Saving schedules under /ms-cloud-cost-optimizer. */
export function schedulesRoutes(deps: { schedules: SchedulesService; guards: Guards }): FastifyPluginAsyncZod {
  const { schedules, guards } = deps;
  return async (app) => {
    const tags = ['saving schedules'];
    app.get(
      '/projects/:projectId/schedules',
      { preHandler: guards.project('view'), schema: { tags, params: ProjectIdParams, response: { 200: z.object({ schedules: z.array(Schedule) }) } } },
      async (req) => ({
        schedules: await schedules.list(req.params.projectId),
      }),
    );
    app.post(
      '/projects/:projectId/schedules',
      { preHandler: guards.project('change'), schema: { tags, params: ProjectIdParams, body: SavingScheduleBody, response: { 201: Schedule } } },
      async (req, reply) => reply.status(201).send(await schedules.create(req.params.projectId, req.body)),
    );
    app.get(
      '/projects/:projectId/schedules/:scheduleId',
      { preHandler: guards.project('view'), schema: { tags, params: ScheduleParams, response: { 200: SavingScheduleDetail } } },
      (req) => schedules.get(req.params.projectId, req.params.scheduleId),
    );
    app.put(
      '/projects/:projectId/schedules/:scheduleId',
      { preHandler: guards.project('change'), schema: { tags, params: ScheduleParams, body: SavingScheduleBody, response: { 200: Schedule } } },
      (req) => schedules.update(req.params.projectId, req.params.scheduleId, req.body),
    );
    app.patch(
      '/projects/:projectId/schedules/:scheduleId/state',
      { preHandler: guards.project('change'), schema: { tags, params: ScheduleParams, body: ScheduleStateBody, response: { 200: Schedule } } },
      (req) => schedules.setState(req.params.projectId, req.params.scheduleId, req.body.state, req.body.startResources),
    );
    app.post(
      '/projects/:projectId/schedules/:scheduleId/actions',
      { preHandler: guards.project('change'), schema: { tags, params: ScheduleParams, body: ScheduleActionBody, response: { 200: ScheduleActionResult } } },
      (req) => schedules.changeState(req.params.projectId, req.params.scheduleId, req.body.action),
    );
    app.get(
      '/projects/:projectId/schedules/:scheduleId/runs',
      { preHandler: guards.project('view'), schema: { tags, params: ScheduleParams, response: { 200: ScheduleRuns } } },
      async (req) => ({ runs: await schedules.runs(req.params.projectId, req.params.scheduleId) }),
    );
    app.delete(
      '/projects/:projectId/schedules/:scheduleId',
      { preHandler: guards.project('change'), schema: { tags, params: ScheduleParams, response: { 200: OkBody } } },
      async (req) => {
        await schedules.remove(req.params.projectId, req.params.scheduleId);
        return { ok: true as const };
      },
    );
    app.get(
      '/projects/:projectId/resources',
      { preHandler: guards.project('view'), schema: { tags, params: ProjectIdParams, querystring: ResourcesQuery, response: { 200: CloudResources } } },
      (req) => schedules.resources(req.params.projectId, req.query),
    );
  };
}
