import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateRegistryBody,
  DockerRegistry,
  DockerRegistryList,
  DockerRepositoryList,
  OkBody,
  ProjectIdParams,
  RegistryParams,
  RepositoryVersions,
  RepositoryVersionsQuery,
  UpdateRegistryBody,
} from '@gantry/contracts';
import { currentUser, type Guards } from '../../platform/auth.js';
import type { RegistriesService } from './registries.service.js';

/**
 * Docker registries of a project (spec delivery §2, §3, §5, §7), under /ms-kube. Reads need 'view', changes
 * 'change' (as cloud accounts). Create and update prove the credentials with the registry first (400, nothing
 * saved). Sensitive credentials are only ever answered as '(sensitive)'. Repositories and versions come from the
 * registry: 502 with its reason when it fails, 503 while it is busy (the web retries).
 */
export function registriesRoutes(deps: { registries: RegistriesService; guards: Guards }): FastifyPluginAsyncZod {
  const { registries: svc, guards } = deps;
  return async (app) => {
    const view = guards.project('view');
    const change = guards.project('change');
    const tags = ['docker registries'];
    const one = '/projects/:projectId/docker-registries/:registryName';

    app.get(
      '/projects/:projectId/docker-registries',
      { preHandler: view, schema: { tags, params: ProjectIdParams, response: { 200: DockerRegistryList } } },
      async (req) => ({
        dockerRegistries: await svc.list(req.params.projectId),
      }),
    );
    app.post(
      '/projects/:projectId/docker-registries',
      { preHandler: change, schema: { tags, params: ProjectIdParams, body: CreateRegistryBody, response: { 201: DockerRegistry } } },
      async (req, reply) => reply.status(201).send(await svc.create(req.params.projectId, currentUser(req).id, req.body)),
    );
    app.get(one, { preHandler: view, schema: { tags, params: RegistryParams, response: { 200: DockerRegistry } } }, async (req) =>
      svc.get(req.params.projectId, req.params.registryName),
    );
    app.put(one, { preHandler: change, schema: { tags, params: RegistryParams, body: UpdateRegistryBody, response: { 200: DockerRegistry } } }, async (req) =>
      svc.update(req.params.projectId, req.params.registryName, req.body),
    );
    app.delete(one, { preHandler: change, schema: { tags, params: RegistryParams, response: { 200: OkBody } } }, async (req) => {
      await svc.remove(req.params.projectId, req.params.registryName);
      return { ok: true as const };
    });
    app.get(`${one}/repositories`, { preHandler: view, schema: { tags, params: RegistryParams, response: { 200: DockerRepositoryList } } }, async (req) =>
      svc.repositories(req.params.projectId, req.params.registryName),
    );
    app.get(
      `${one}/versions`,
      { preHandler: view, schema: { tags, params: RegistryParams, querystring: RepositoryVersionsQuery, response: { 200: RepositoryVersions } } },
      async (req) => svc.versions(req.params.projectId, req.params.registryName, req.query),
    );
  };
}
