import type { FastifyInstance, FastifySchema } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
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

/** One provider's accounts: the same four routes (list, add, update, remove) under `/projects/:projectId/<collection>`. */
interface AccountKind<P extends z.ZodType, B extends z.ZodType, U extends z.ZodType, A extends z.ZodType, L extends z.ZodType> {
  tag: string;
  collection: string;
  /** The path segments naming one account after the collection (`:awsAccountId`). */
  one: string;
  schemas: { params: P; body: B; update: U; account: A; list: L };
  list(projectId: string): Promise<z.input<L>>;
  add(projectId: string, userId: string, body: z.output<B>): Promise<z.input<A>>;
  update(params: z.output<P>, body: z.output<U>): Promise<z.input<A>>;
  remove(params: z.output<P>): Promise<void>;
}

/** A schema of generic zod types, typed as Fastify's plain schema: the handlers below type what they take and give. */
const route = (schema: FastifySchema) => schema;

/**
 * Mounts one provider's routes. Params and bodies are validated by their zod schemas before a handler runs (the
 * app's validator compiler), so the handlers take them as those schemas' output; answers are serialized by the
 * response schemas, so nothing else leaves.
 */
function mountAccountRoutes<P extends z.ZodType, B extends z.ZodType, U extends z.ZodType, A extends z.ZodType, L extends z.ZodType>(
  app: FastifyInstance,
  guards: Guards,
  kind: AccountKind<P, B, U, A, L>,
) {
  const view = guards.project('view');
  const change = guards.project('change');
  const tags = [kind.tag];
  const collection = `/projects/:projectId/${kind.collection}`;
  const one = `${collection}/${kind.one}`;
  const { params, body, update, account, list } = kind.schemas;
  app.get(collection, { preHandler: view, schema: route({ tags, params: ProjectIdParams, response: { 200: list } }) }, async (req) =>
    kind.list((req.params as z.output<typeof ProjectIdParams>).projectId),
  );
  app.post(collection, { preHandler: change, schema: route({ tags, params: ProjectIdParams, body, response: { 201: account } }) }, async (req, reply) =>
    reply.status(201).send(await kind.add((req.params as z.output<typeof ProjectIdParams>).projectId, currentUser(req).id, req.body as z.output<B>)),
  );
  app.put(one, { preHandler: change, schema: route({ tags, params, body: update, response: { 200: account } }) }, async (req) =>
    kind.update(req.params as z.output<P>, req.body as z.output<U>),
  );
  app.delete(one, { preHandler: change, schema: route({ tags, params, response: { 200: OkBody } }) }, async (req) => {
    await kind.remove(req.params as z.output<P>);
    return { ok: true as const };
  });
}

/**
 * Cloud accounts of a project (spec account-and-platform §2.9, §7), under /ms-aws. Listing needs 'view',
 * everything else 'change'. Adding and updating first prove the connection with the provider (400 with the
 * spec's message when it fails). Secrets (externalId, clientSecret) are only ever answered as '(sensitive)'.
 */
export function cloudAccountsRoutes(deps: { cloudAccounts: CloudAccountsService; guards: Guards }): FastifyPluginAsyncZod {
  const { cloudAccounts: svc, guards } = deps;
  return async (zodApp) => {
    const app = zodApp as unknown as FastifyInstance;
    mountAccountRoutes(app, guards, {
      tag: 'aws accounts',
      collection: 'aws-accounts',
      one: ':awsAccountId',
      schemas: { params: AwsAccountParams, body: AwsAccountBody, update: UpdateAwsAccountBody, account: AwsAccount, list: AwsAccountList },
      list: async (projectId) => ({ awsAccounts: await svc.listAws(projectId) }),
      add: (projectId, userId, body) => svc.addAws(projectId, userId, body),
      update: (p, body) => svc.updateAws(p.projectId, p.awsAccountId, body),
      remove: (p) => svc.removeAws(p.projectId, p.awsAccountId),
    });
    mountAccountRoutes(app, guards, {
      tag: 'gcp accounts',
      collection: 'gcp-accounts',
      one: ':gcpProjectId',
      schemas: { params: GcpAccountParams, body: GcpAccountBody, update: UpdateGcpAccountBody, account: GcpAccount, list: GcpAccountList },
      list: async (projectId) => ({ gcpAccounts: await svc.listGcp(projectId) }),
      add: (projectId, userId, body) => svc.addGcp(projectId, userId, body),
      update: (p, body) => svc.updateGcp(p.projectId, p.gcpProjectId, body),
      remove: (p) => svc.removeGcp(p.projectId, p.gcpProjectId),
    });
    mountAccountRoutes(app, guards, {
      tag: 'azure accounts',
      collection: 'azure-accounts',
      one: ':tenantId/:subscriptionId',
      schemas: { params: AzureAccountParams, body: AzureAccountBody, update: UpdateAzureAccountBody, account: AzureAccount, list: AzureAccountList },
      list: async (projectId) => ({ azureAccounts: await svc.listAzure(projectId) }),
      add: (projectId, userId, body) => svc.addAzure(projectId, userId, body),
      update: (p, body) => svc.updateAzure(p.projectId, p.tenantId, p.subscriptionId, body),
      remove: (p) => svc.removeAzure(p.projectId, p.tenantId, p.subscriptionId),
    });
  };
}
