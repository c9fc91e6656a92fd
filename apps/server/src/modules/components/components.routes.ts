import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ProjectIdParams,
  OkBody,
  ComponentBody,
  UpdateComponentBody,
  ComponentParams,
  ComponentVersionParams,
  ComponentShareParams,
  ShareComponentBody,
  Component,
  ComponentDetails,
  ComponentDetailsQuery,
  ComponentVersion,
  ComponentVersionSchema,
  ComponentBuilding,
} from '@gantry/contracts';
import { currentUser, type Guards } from '../../platform/auth.js';
import type { ComponentsService } from './components.service.js';

/** Components under /ms-engine (spec infrastructure-builder §2, §7): own, shared-with and vendor ones. */
export function componentsRoutes(deps: { components: ComponentsService; guards: Guards }): FastifyPluginAsyncZod {
  const { components, guards } = deps;
  return async (app) => {
    const tags = ['components'];
    const base = '/projects/:projectId/components';
    app.get(
      base,
      { preHandler: guards.project('view'), schema: { tags, params: ProjectIdParams, response: { 200: z.object({ components: z.array(Component) }) } } },
      async (req) => ({
        components: await components.list(req.params.projectId),
      }),
    );
    app.post(
      base,
      {
        preHandler: guards.project('change'),
        schema: { tags, params: ProjectIdParams, body: ComponentBody, response: { 201: z.object({ componentId: z.string() }) } },
      },
      async (req, reply) => reply.status(201).send(await components.create(req.params.projectId, req.body)),
    );
    app.get(
      `${base}/:componentId`,
      {
        preHandler: guards.project('view'),
        schema: { tags, params: ComponentParams, querystring: ComponentDetailsQuery, response: { 200: ComponentDetails } },
      },
      (req) => components.details(req.params.projectId, req.params.componentId, req.query.buildId),
    );
    app.put(
      `${base}/:componentId`,
      { preHandler: guards.project('change'), schema: { tags, params: ComponentParams, body: UpdateComponentBody, response: { 200: Component } } },
      (req) => components.update(req.params.projectId, req.params.componentId, req.body),
    );
    app.delete(
      `${base}/:componentId`,
      { preHandler: guards.project('change'), schema: { tags, params: ComponentParams, response: { 200: OkBody } } },
      async (req) => {
        await components.remove(req.params.projectId, req.params.componentId);
        return { ok: true as const };
      },
    );
    app.get(
      `${base}/:componentId/versions`,
      { preHandler: guards.project('view'), schema: { tags, params: ComponentParams, response: { 200: z.object({ versions: z.array(ComponentVersion) }) } } },
      async (req) => ({
        versions: await components.versions(req.params.projectId, req.params.componentId),
      }),
    );
    app.get(
      `${base}/:componentId/versions/:buildId/schema`,
      { preHandler: guards.project('view'), schema: { tags, params: ComponentVersionParams, response: { 200: ComponentVersionSchema } } },
      (req) => components.versionSchema(req.params.projectId, req.params.componentId, req.params.buildId),
    );
    app.get(
      `${base}/:componentId/building`,
      { preHandler: guards.project('view'), schema: { tags, params: ComponentParams, response: { 200: ComponentBuilding } } },
      (req) => components.building(req.params.projectId, req.params.componentId),
    );
    app.post(
      `${base}/:componentId/share`,
      { preHandler: guards.project('manageUsers'), schema: { tags, params: ComponentParams, body: ShareComponentBody, response: { 200: Component } } },
      (req) => components.share(req.params.projectId, req.params.componentId, currentUser(req).id, (req.body.projectId ?? req.body.granteeId)!),
    );
    app.delete(
      `${base}/:componentId/share/:targetProjectId`,
      { preHandler: guards.project('manageUsers'), schema: { tags, params: ComponentShareParams, response: { 200: Component } } },
      (req) => components.unshare(req.params.projectId, req.params.componentId, req.params.targetProjectId),
    );
  };
}
