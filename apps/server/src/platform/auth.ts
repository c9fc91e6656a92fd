import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can, type Permission, type ProjectAction } from '@gantry/contracts';
import { bearerFrom, type IdTokens } from './tokens.js';
import { Forbidden, NotFound, Unauthorized } from './errors.js';

export interface AuthUser {
  id: string;
  email: string;
}
export interface ProjectMember {
  projectId: string;
  permission: Permission;
}

declare module 'fastify' {
  interface FastifyRequest {
    authUser?: AuthUser;
    member?: ProjectMember;
  }
}

/** What the guard needs to know of memberships; the projects service answers it. */
export type MembershipLookup = (projectId: string, userId: string) => Promise<Permission | undefined>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createGuards(idTokens: IdTokens, membership: MembershipLookup) {
  async function authenticate(request: FastifyRequest) {
    const token = bearerFrom(request.headers.authorization);
    if (!token) throw new Unauthorized('No authorization token was found', 401, 'JsonWebTokenError');
    const claims = await idTokens.verify(token);
    request.authUser = { id: claims.sub, email: claims.email };
  }

  /** One guard for every project-scoped route: member or 404, enough permission or 403 (spec §6). */
  function project(action: ProjectAction) {
    return async (request: FastifyRequest) => {
      await authenticate(request);
      const projectId = (request.params as { projectId?: string }).projectId;
      if (!projectId || !UUID.test(projectId)) throw new NotFound('Project not found');
      const permission = await membership(projectId, request.authUser!.id);
      if (!permission) throw new NotFound('Project not found');
      if (!can(permission, action)) throw new Forbidden(`Your permission (${permission}) does not allow this action`);
      request.member = { projectId, permission };
    };
  }

  return { authenticate, project };
}
export type Guards = ReturnType<typeof createGuards>;

export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw new Unauthorized('Not signed in', 401, 'JsonWebTokenError');
  return request.authUser;
}
export function currentMember(request: FastifyRequest): ProjectMember {
  if (!request.member) throw new NotFound('Project not found');
  return request.member;
}

export type App = FastifyInstance;
