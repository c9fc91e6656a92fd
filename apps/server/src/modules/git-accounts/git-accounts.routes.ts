import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ConnectGitAccountBody,
  GitAccountParams,
  OkBody,
  ProjectIdParams,
  GitProviders,
  GitAccountList,
  ConnectedGitAccount,
  GitRepositoryList,
  GitBranchesQuery,
  GitBranchList,
} from '@gantry/contracts';
import { currentUser, type Guards } from '../../platform/auth.js';
import type { GitAccountsService } from './git-accounts.service.js';

const ok = { ok: true as const };

/** Git accounts of a project (spec delivery §7 "Git accounts"), under /ms-ap. Tokens never leave the server. */
export function gitAccountsRoutes(deps: { gitAccounts: GitAccountsService; guards: Guards }): FastifyPluginAsyncZod {
  const { gitAccounts, guards } = deps;
  return async (app) => {
    const tags = ['git accounts'];
    app.get('/git-providers', { preHandler: guards.authenticate, schema: { tags, response: { 200: GitProviders } } }, async () => gitAccounts.providers());

    app.get(
      '/projects/:projectId/git-accounts',
      { preHandler: guards.project('view'), schema: { tags, params: ProjectIdParams, response: { 200: GitAccountList } } },
      async (req) => ({
        gitAccounts: await gitAccounts.list(req.params.projectId),
      }),
    );
    app.post(
      '/projects/:projectId/git-accounts',
      { preHandler: guards.project('change'), schema: { tags, params: ProjectIdParams, body: ConnectGitAccountBody, response: { 201: ConnectedGitAccount } } },
      async (req, reply) => reply.status(201).send(await gitAccounts.connect(req.params.projectId, currentUser(req).id, req.body)),
    );
    app.delete(
      '/projects/:projectId/git-accounts/:gitAccountId',
      { preHandler: guards.project('change'), schema: { tags, params: GitAccountParams, response: { 200: OkBody } } },
      async (req) => {
        await gitAccounts.remove(req.params.projectId, req.params.gitAccountId);
        return ok;
      },
    );
    app.get(
      '/projects/:projectId/git-accounts/:gitAccountId/repositories',
      { preHandler: guards.project('view'), schema: { tags, params: GitAccountParams, response: { 200: GitRepositoryList } } },
      async (req) => ({
        repositories: await gitAccounts.repositories(req.params.projectId, req.params.gitAccountId),
      }),
    );
    app.get(
      '/projects/:projectId/git-accounts/:gitAccountId/branches',
      { preHandler: guards.project('view'), schema: { tags, params: GitAccountParams, querystring: GitBranchesQuery, response: { 200: GitBranchList } } },
      async (req) => ({
        branches: await gitAccounts.branches(req.params.projectId, req.params.gitAccountId, req.query.repositoryUrl),
      }),
    );
  };
}
