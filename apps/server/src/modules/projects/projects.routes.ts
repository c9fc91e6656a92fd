import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ProjectBody,
  ProjectList,
  Project,
  ProjectIdParams,
  ProjectUserParams,
  CreatedId,
  OkBody,
  ProjectUserList,
  InviteUserBody,
  UpdatePermissionBody,
  ResendInvitationBody,
} from '@gantry/contracts';
import { currentMember, currentUser, type Guards } from '../../platform/auth.js';
import type { ProjectsService } from './projects.service.js';

const ok = { ok: true as const };

const JSON_TYPE = 'application/json; charset=utf-8';

export function projectsRoutes(deps: { projects: ProjectsService; listAnswer: (userId: string) => Promise<Buffer>; guards: Guards }): FastifyPluginAsyncZod {
  const { projects, guards } = deps;
  return async (app) => {
    const tags = ['projects'];
    // the list every signed-in page asks for: sent as the bytes kept for the user, already written from ProjectList (the schema documents them)
    app.get('/projects', { preHandler: guards.authenticate, schema: { tags, response: { 200: ProjectList } } }, async (req, reply) =>
      reply.header('content-type', JSON_TYPE).send((await deps.listAnswer(currentUser(req).id)) as never),
    );
    app.post('/projects', { preHandler: guards.authenticate, schema: { tags, body: ProjectBody, response: { 201: CreatedId } } }, async (req, reply) =>
      reply.status(201).send(await projects.create(currentUser(req), req.body)),
    );
    app.put(
      '/projects/:projectId',
      { preHandler: guards.project('manageProject'), schema: { tags, params: ProjectIdParams, body: ProjectBody, response: { 200: Project } } },
      (req) => projects.update(req.params.projectId, currentUser(req).id, req.body),
    );
    app.delete(
      '/projects/:projectId',
      { preHandler: guards.project('manageProject'), schema: { tags, params: ProjectIdParams, response: { 200: OkBody } } },
      async (req) => {
        await projects.remove(req.params.projectId);
        return ok;
      },
    );

    const members = ['members'];
    app.get(
      '/projects/:projectId/users',
      { preHandler: guards.project('view'), schema: { tags: members, params: ProjectIdParams, response: { 200: ProjectUserList } } },
      async (req) => ({
        users: await projects.members(req.params.projectId),
      }),
    );
    app.post(
      '/projects/:projectId/users',
      { preHandler: guards.project('manageUsers'), schema: { tags: members, params: ProjectIdParams, body: InviteUserBody, response: { 201: OkBody } } },
      async (req, reply) => {
        await projects.invite(
          req.params.projectId,
          { id: currentUser(req).id, permission: currentMember(req).permission },
          req.body.email,
          req.body.permission,
        );
        return reply.status(201).send(ok);
      },
    );
    app.post(
      '/projects/:projectId/users/resend',
      { preHandler: guards.project('manageUsers'), schema: { tags: members, params: ProjectIdParams, body: ResendInvitationBody, response: { 200: OkBody } } },
      async (req) => {
        await projects.resend(req.params.projectId, currentUser(req).id, req.body.username);
        return ok;
      },
    );
    app.put(
      '/projects/:projectId/users/:userId',
      {
        preHandler: guards.project('manageUsers'),
        schema: { tags: members, params: ProjectUserParams, body: UpdatePermissionBody, response: { 200: OkBody } },
      },
      async (req) => {
        await projects.setPermission(
          req.params.projectId,
          { id: currentUser(req).id, permission: currentMember(req).permission },
          req.params.userId,
          req.body.permission,
        );
        return ok;
      },
    );
    app.delete(
      '/projects/:projectId/users/:userId',
      { preHandler: guards.project('manageUsers'), schema: { tags: members, params: ProjectUserParams, response: { 200: OkBody } } },
      async (req) => {
        await projects.removeMember(req.params.projectId, { id: currentUser(req).id, permission: currentMember(req).permission }, req.params.userId);
        return ok;
      },
    );
  };
}

/** "Get multiple users" lives with user management in the spec's service split. */
export function projectUsersLookupRoutes(deps: { projects: ProjectsService; guards: Guards }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/projects/:projectId/users',
      {
        preHandler: deps.guards.project('view'),
        schema: {
          tags: ['usermanagement'],
          params: ProjectIdParams,
          querystring: z.object({ userIds: z.string().default('') }),
          response: {
            200: z.object({ users: z.record(z.string(), z.object({ firstName: z.string(), lastName: z.string(), email: z.string(), status: z.string() })) }),
          },
        },
      },
      async (req) => ({ users: await deps.projects.usersById(req.params.projectId, req.query.userIds.split(',').filter(Boolean)) }),
    );
  };
}
