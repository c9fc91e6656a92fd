import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Build,
  BuildsQuery,
  PipelineParams,
  ProjectIdParams,
  TriggerBody,
  PipelineMetrics,
  BuildLimitations,
  OkBody,
  GitProvider,
  TimelineEvent,
  TimelineQuery,
  InputText,
  InputUuid,
} from '@gantry/contracts';
import { currentUser, type Guards } from '../../platform/auth.js';
import type { BuildsService } from './builds.service.js';
import type { PipelinesService } from '../pipelines/pipelines.service.js';

const BuildParams = PipelineParams.extend({ buildId: InputText().min(1).max(64) });
const ok = { ok: true as const };

export function buildsRoutes(deps: { builds: BuildsService; pipelines: PipelinesService; guards: Guards }): FastifyPluginAsyncZod {
  const { builds, pipelines, guards } = deps;
  return async (app) => {
    const tags = ['builds'];
    app.get(
      '/projects/:projectId/pipelines/:pipelineId/builds',
      {
        preHandler: guards.project('view'),
        schema: { tags, params: PipelineParams, querystring: BuildsQuery, response: { 200: z.object({ builds: z.array(Build) }) } },
      },
      async (req) => ({
        builds: await builds.list(req.params.projectId, req.params.pipelineId, req.query),
      }),
    );
    app.post(
      '/projects/:projectId/pipelines/:pipelineId/builds',
      {
        preHandler: guards.project('change'),
        schema: { tags, params: PipelineParams, body: TriggerBody, response: { 201: z.object({ buildId: z.string() }) } },
      },
      async (req, reply) => {
        const pipeline = await pipelines.get(req.params.projectId, req.params.pipelineId);
        const build = await builds.trigger(req.params.projectId, pipeline, {
          branch: req.body.ref.replace(/^refs\/heads\//, ''),
          trigger: 'manual',
          userId: currentUser(req).id,
        });
        return reply.status(201).send({ buildId: build.id });
      },
    );
    app.get(
      '/projects/:projectId/pipelines/:pipelineId/builds/:buildId',
      { preHandler: guards.project('view'), schema: { tags, params: BuildParams, response: { 200: Build } } },
      (req) => builds.get(req.params.projectId, req.params.pipelineId, req.params.buildId),
    );
    app.post(
      '/projects/:projectId/pipelines/:pipelineId/builds/:buildId/stop',
      { preHandler: guards.project('change'), schema: { tags, params: BuildParams, response: { 200: OkBody } } },
      async (req) => {
        await builds.stop(req.params.projectId, req.params.pipelineId, req.params.buildId);
        return ok;
      },
    );
    app.get(
      '/projects/:projectId/pipelines/:pipelineId/builds/:buildId/steps/:step/logs',
      {
        preHandler: guards.project('view'),
        schema: {
          tags,
          params: BuildParams.extend({ step: InputText() }),
          response: { 200: z.object({ buildId: z.string(), step: z.string(), chunks: z.array(z.object({ seq: z.number(), text: z.string() })) }) },
        },
      },
      (req) => builds.logs(req.params.projectId, req.params.pipelineId, req.params.buildId, req.params.step),
    );
    app.get(
      '/projects/:projectId/pipelines/:pipelineId/builds/:buildId/artifacts/:artifactId',
      {
        preHandler: guards.project('view'),
        schema: { tags, params: BuildParams.extend({ artifactId: InputUuid() }) },
      },
      async (req, reply) => {
        const { artifact, stream } = await builds.artifactFile(req.params.projectId, req.params.pipelineId, req.params.buildId, req.params.artifactId);
        const filename = artifact.kind === 'files' ? `${artifact.name}.zip` : artifact.name;
        return reply
          .type(artifact.kind === 'json' ? 'application/json' : 'application/zip')
          .header('content-disposition', attachment(filename))
          .send(stream);
      },
    );
    app.get(
      '/projects/:projectId/pipelines/:pipelineId/metrics',
      { preHandler: guards.project('view'), schema: { tags, params: PipelineParams, response: { 200: PipelineMetrics } } },
      (req) => builds.metrics(req.params.projectId, req.params.pipelineId),
    );
    app.get(
      '/projects/:projectId/pipeline-metrics',
      { preHandler: guards.project('view'), schema: { tags, params: ProjectIdParams, response: { 200: PipelineMetrics } } },
      (req) => builds.metrics(req.params.projectId),
    );
    app.get(
      '/projects/:projectId/build-limitations',
      { preHandler: guards.project('view'), schema: { tags, params: ProjectIdParams, response: { 200: BuildLimitations } } },
      (req) => builds.limitations(req.params.projectId),
    );
  };
}

/** The project timeline, in the spec's /ms-elasticsearch service. */
export function timelineRoutes(deps: { events: (projectId: string, type?: string) => Promise<TimelineEvent[]>; guards: Guards }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/projects/:projectId/timeline',
      {
        preHandler: deps.guards.project('view'),
        schema: { tags: ['timeline'], params: ProjectIdParams, querystring: TimelineQuery, response: { 200: z.object({ events: z.array(TimelineEvent) }) } },
      },
      async (req) => ({ events: await deps.events(req.params.projectId, req.query.type) }),
    );
  };
}

/**
 * A Content-Disposition for a download named `filename` (RFC 6266): an ASCII fallback, and the name itself UTF-8
 * encoded (RFC 8187). A name's own characters never reach the header as they are: one outside Latin-1 made Node
 * refuse the header (500), and a quote or a line break must not end the value.
 */
export function attachment(filename: string) {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\;]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Provider push webhooks: no session, the signature made with the pipeline's own secret is the proof. */
export function webhookRoutes(deps: { builds: BuildsService }): FastifyPluginAsyncZod {
  return async (app) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 10 * 1024 * 1024 }, (_req, body, done) => done(null, body));
    app.post(
      '/webhooks/:provider/:pipelineId',
      {
        schema: {
          tags: ['webhooks'],
          params: z.object({ provider: GitProvider, pipelineId: InputUuid() }),
          response: {
            202: z.object({ triggered: z.boolean(), buildId: z.string().nullable(), reason: z.string().nullable(), duplicate: z.literal(true).optional() }),
          },
        },
      },
      async (req, reply) => reply.status(202).send(await deps.builds.receivePush(req.params.pipelineId, req.headers, String(req.body ?? ''))),
    );
  };
}
