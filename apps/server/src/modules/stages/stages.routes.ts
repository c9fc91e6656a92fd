import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StageBody, StageFromTemplateBody, Stage, StageParams, ProjectIdParams, OkBody, ResourceBody, Resource, ResourceParams } from '@gantry/contracts';
import type { Guards } from '../../platform/auth.js';
import type { StagesService } from './stages.service.js';

const ok = { ok: true as const };

/** Environments under /ms-engine (the API says stage). */
export function stagesRoutes(deps: { stages: StagesService; guards: Guards }): FastifyPluginAsyncZod {
  const { stages, guards } = deps;
  return async (app) => {
    const tags = ['environments'];
    app.get(
      '/projects/:projectId/stages',
      { preHandler: guards.project('view'), schema: { tags, params: ProjectIdParams, response: { 200: z.object({ stages: z.array(Stage) }) } } },
      async (req) => ({
        stages: await stages.list(req.params.projectId),
      }),
    );
    app.post(
      '/projects/:projectId/stages',
      {
        preHandler: guards.project('change'),
        schema: { tags, params: ProjectIdParams, body: StageBody, response: { 201: z.object({ stageId: z.string() }) } },
      },
      async (req, reply) => reply.status(201).send(await stages.create(req.params.projectId, req.body)),
    );
    app.post(
      '/projects/:projectId/stages/from-template',
      {
        preHandler: guards.project('change'),
        schema: { tags, params: ProjectIdParams, body: StageFromTemplateBody, response: { 201: z.object({ stageId: z.string() }) } },
      },
      async (req, reply) => reply.status(201).send(await stages.createFromTemplate(req.params.projectId, req.body)),
    );
    app.get(
      '/projects/:projectId/stages/:stageId',
      { preHandler: guards.project('view'), schema: { tags, params: StageParams, response: { 200: Stage } } },
      (req) => stages.one(req.params.projectId, req.params.stageId),
    );
    app.put(
      '/projects/:projectId/stages/:stageId',
      { preHandler: guards.project('change'), schema: { tags, params: StageParams, body: StageBody, response: { 200: Stage } } },
      (req) => stages.update(req.params.projectId, req.params.stageId, req.body),
    );
    app.get(
      '/projects/:projectId/stages/:stageId/resources',
      { preHandler: guards.project('view'), schema: { tags, params: StageParams, response: { 200: z.object({ resources: z.array(Resource) }) } } },
      async (req) => ({
        resources: await stages.resources(req.params.projectId, req.params.stageId),
      }),
    );
    app.post(
      '/projects/:projectId/stages/:stageId/resources',
      { preHandler: guards.project('change'), schema: { tags, params: StageParams, body: ResourceBody, response: { 201: Resource } } },
      async (req, reply) => reply.status(201).send(await stages.addResource(req.params.projectId, req.params.stageId, req.body)),
    );
    app.put(
      '/projects/:projectId/stages/:stageId/resources/:resourceName',
      { preHandler: guards.project('change'), schema: { tags, params: ResourceParams, body: ResourceBody, response: { 200: Resource } } },
      (req) => stages.updateResource(req.params.projectId, req.params.stageId, req.params.resourceName, req.body),
    );
    app.delete(
      '/projects/:projectId/stages/:stageId/resources/:resourceName',
      { preHandler: guards.project('change'), schema: { tags, params: ResourceParams, response: { 200: OkBody } } },
      async (req) => {
        await stages.removeResource(req.params.projectId, req.params.stageId, req.params.resourceName);
        return ok;
      },
    );
    app.delete(
      '/projects/:projectId/stages/:stageId',
      { preHandler: guards.project('change'), schema: { tags, params: StageParams, response: { 200: OkBody } } },
      async (req) => {
        await stages.remove(req.params.projectId, req.params.stageId);
        return ok;
      },
    );
  };
}
