import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PipelineBody,
  UpdatePipelineBody,
  Pipeline,
  PipelineList,
  PipelinesQuery,
  PipelineParams,
  ProjectIdParams,
  PipelineSpec,
  UpdateSpecBody,
  OkBody,
} from '@gantry/contracts';
import type { Guards } from '../../platform/auth.js';
import type { PipelinesService } from './pipelines.service.js';

const ok = { ok: true as const };

export function pipelinesRoutes(deps: { pipelines: PipelinesService; guards: Guards }): FastifyPluginAsyncZod {
  const { pipelines, guards } = deps;
  return async (app) => {
    const tags = ['pipelines'];
    app.get(
      '/projects/:projectId/pipelines',
      { preHandler: guards.project('view'), schema: { tags, params: ProjectIdParams, querystring: PipelinesQuery, response: { 200: PipelineList } } },
      (req) => pipelines.list(req.params.projectId, req.query),
    );
    app.post(
      '/projects/:projectId/pipelines',
      {
        preHandler: guards.project('change'),
        schema: { tags, params: ProjectIdParams, body: PipelineBody, response: { 201: z.object({ pipelineId: z.string() }) } },
      },
      async (req, reply) => reply.status(201).send(await pipelines.create(req.params.projectId, req.body)),
    );
    app.get(
      '/projects/:projectId/pipelines/:pipelineId',
      { preHandler: guards.project('view'), schema: { tags, params: PipelineParams, response: { 200: Pipeline } } },
      (req) => pipelines.one(req.params.projectId, req.params.pipelineId),
    );
    app.put(
      '/projects/:projectId/pipelines/:pipelineId',
      { preHandler: guards.project('change'), schema: { tags, params: PipelineParams, body: UpdatePipelineBody, response: { 200: Pipeline } } },
      (req) => pipelines.update(req.params.projectId, req.params.pipelineId, req.body),
    );
    app.delete(
      '/projects/:projectId/pipelines/:pipelineId',
      { preHandler: guards.project('change'), schema: { tags, params: PipelineParams, response: { 200: OkBody } } },
      async (req) => {
        await pipelines.remove(req.params.projectId, req.params.pipelineId);
        return ok;
      },
    );
    app.get(
      '/projects/:projectId/pipelines/:pipelineId/spec',
      { preHandler: guards.project('view'), schema: { tags, params: PipelineParams, response: { 200: PipelineSpec } } },
      (req) => pipelines.spec(req.params.projectId, req.params.pipelineId),
    );
    app.put(
      '/projects/:projectId/pipelines/:pipelineId/spec',
      { preHandler: guards.project('change'), schema: { tags, params: PipelineParams, body: UpdateSpecBody, response: { 200: PipelineSpec } } },
      (req) => pipelines.updateSpec(req.params.projectId, req.params.pipelineId, req.body.gantryYaml),
    );
  };
}
