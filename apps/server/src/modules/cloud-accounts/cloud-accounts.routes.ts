import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AwsAccount,
  AwsAccountBody,
  AwsAccountList,
  AwsAccountParams,
  UpdateAwsAccountBody,
  GcpAccount,
  GcpAccountBody,
  GcpAccountList,
  GcpAccountParams,
  UpdateGcpAccountBody,
  AzureAccount,
  AzureAccountBody,
  AzureAccountList,
  AzureAccountParams,
  UpdateAzureAccountBody,
  OkBody,
  ProjectIdParams,
} from '@gantry/contracts';
import { currentUser, type Guards } from '../../platform/auth.js';
import type { CloudAccountsService } from './cloud-accounts.service.js';

const ok = { ok: true as const };

/**
 * Cloud accounts of a project (spec account-and-platform §2.9, §7), under /ms-aws. Listing needs 'view',
 * everything else 'change'. Adding and updating first prove the connection with the provider (400 with the
 * spec's message when it fails). Secrets (externalId, clientSecret) are only ever answered as '(sensitive)'.
 */
export function cloudAccountsRoutes(deps: { cloudAccounts: CloudAccountsService; guards: Guards }): FastifyPluginAsyncZod {
  const { cloudAccounts: svc, guards } = deps;
  return async (app) => {
    const view = guards.project('view');
    const change = guards.project('change');

    {
      const tags = ['aws accounts'];
      app.get(
        '/projects/:projectId/aws-accounts',
        { preHandler: view, schema: { tags, params: ProjectIdParams, response: { 200: AwsAccountList } } },
        async (req) => ({
          awsAccounts: await svc.listAws(req.params.projectId),
        }),
      );
      app.post(
        '/projects/:projectId/aws-accounts',
        { preHandler: change, schema: { tags, params: ProjectIdParams, body: AwsAccountBody, response: { 201: AwsAccount } } },
        async (req, reply) => reply.status(201).send(await svc.addAws(req.params.projectId, currentUser(req).id, req.body)),
      );
      app.put(
        '/projects/:projectId/aws-accounts/:awsAccountId',
        { preHandler: change, schema: { tags, params: AwsAccountParams, body: UpdateAwsAccountBody, response: { 200: AwsAccount } } },
        async (req) => svc.updateAws(req.params.projectId, req.params.awsAccountId, req.body),
      );
      app.delete(
        '/projects/:projectId/aws-accounts/:awsAccountId',
        { preHandler: change, schema: { tags, params: AwsAccountParams, response: { 200: OkBody } } },
        async (req) => {
          await svc.removeAws(req.params.projectId, req.params.awsAccountId);
          return ok;
        },
      );
    }

    {
      const tags = ['gcp accounts'];
      app.get(
        '/projects/:projectId/gcp-accounts',
        { preHandler: view, schema: { tags, params: ProjectIdParams, response: { 200: GcpAccountList } } },
        async (req) => ({
          gcpAccounts: await svc.listGcp(req.params.projectId),
        }),
      );
      app.post(
        '/projects/:projectId/gcp-accounts',
        { preHandler: change, schema: { tags, params: ProjectIdParams, body: GcpAccountBody, response: { 201: GcpAccount } } },
        async (req, reply) => reply.status(201).send(await svc.addGcp(req.params.projectId, currentUser(req).id, req.body)),
      );
      app.put(
        '/projects/:projectId/gcp-accounts/:gcpProjectId',
        { preHandler: change, schema: { tags, params: GcpAccountParams, body: UpdateGcpAccountBody, response: { 200: GcpAccount } } },
        async (req) => svc.updateGcp(req.params.projectId, req.params.gcpProjectId, req.body),
      );
      app.delete(
        '/projects/:projectId/gcp-accounts/:gcpProjectId',
        { preHandler: change, schema: { tags, params: GcpAccountParams, response: { 200: OkBody } } },
        async (req) => {
          await svc.removeGcp(req.params.projectId, req.params.gcpProjectId);
          return ok;
        },
      );
    }

    {
      const tags = ['azure accounts'];
      const one = '/projects/:projectId/azure-accounts/:tenantId/:subscriptionId';
      app.get(
        '/projects/:projectId/azure-accounts',
        { preHandler: view, schema: { tags, params: ProjectIdParams, response: { 200: AzureAccountList } } },
        async (req) => ({
          azureAccounts: await svc.listAzure(req.params.projectId),
        }),
      );
      app.post(
        '/projects/:projectId/azure-accounts',
        { preHandler: change, schema: { tags, params: ProjectIdParams, body: AzureAccountBody, response: { 201: AzureAccount } } },
        async (req, reply) => reply.status(201).send(await svc.addAzure(req.params.projectId, currentUser(req).id, req.body)),
      );
      app.put(
        one,
        { preHandler: change, schema: { tags, params: AzureAccountParams, body: UpdateAzureAccountBody, response: { 200: AzureAccount } } },
        async (req) => svc.updateAzure(req.params.projectId, req.params.tenantId, req.params.subscriptionId, req.body),
      );
      app.delete(one, { preHandler: change, schema: { tags, params: AzureAccountParams, response: { 200: OkBody } } }, async (req) => {
        await svc.removeAzure(req.params.projectId, req.params.tenantId, req.params.subscriptionId);
        return ok;
      });
    }
  };
}
