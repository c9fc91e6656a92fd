import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Cluster,
  ClusterList,
  ClusterListQuery,
  ClusterParams,
  ClusterStatus,
  CreateClusterBody,
  NamespaceList,
  OkBody,
  ProjectIdParams,
  UpdateClusterBody,
} from '@gantry/contracts';
import { currentUser, type Guards } from '../../platform/auth.js';
import type { ClustersService } from './clusters.service.js';

/**
 * Kubernetes clusters of a project (spec delivery §2 Clusters, §3, §5, §7), under /ms-kube. Reads need 'view',
 * changes 'change' (as cloud accounts and registries). Create and update prove the cluster first (400 with the
 * reason, nothing saved). The token is only ever answered as '(sensitive)'. The status needs the plan's
 * kubernetesDashboard feature (402); a cluster failing on a read answers 502 with its reason.
 */
export function clustersRoutes(deps: { clusters: ClustersService; guards: Guards }): FastifyPluginAsyncZod {
  const { clusters: svc, guards } = deps;
  return async (app) => {
    const view = guards.project('view');
    const change = guards.project('change');
    const tags = ['kubernetes clusters'];
    const all = '/projects/:projectId/kubernetes';
    const one = `${all}/:clusterId`;

    app.get(all, { preHandler: view, schema: { tags, params: ProjectIdParams, querystring: ClusterListQuery, response: { 200: ClusterList } } }, async (req) =>
      svc.list(req.params.projectId, req.query.detailed === 'true'),
    );
    app.post(all, { preHandler: change, schema: { tags, params: ProjectIdParams, body: CreateClusterBody, response: { 201: Cluster } } }, async (req, reply) =>
      reply.status(201).send(await svc.create(req.params.projectId, currentUser(req).id, req.body)),
    );
    app.get(one, { preHandler: view, schema: { tags, params: ClusterParams, response: { 200: Cluster } } }, async (req) =>
      svc.get(req.params.projectId, req.params.clusterId),
    );
    app.put(one, { preHandler: change, schema: { tags, params: ClusterParams, body: UpdateClusterBody, response: { 200: Cluster } } }, async (req) =>
      svc.update(req.params.projectId, req.params.clusterId, req.body),
    );
    app.delete(one, { preHandler: change, schema: { tags, params: ClusterParams, response: { 200: OkBody } } }, async (req) => {
      await svc.remove(req.params.projectId, req.params.clusterId);
      return { ok: true as const };
    });
    app.get(`${one}/status`, { preHandler: view, schema: { tags, params: ClusterParams, response: { 200: ClusterStatus } } }, async (req) =>
      svc.status(req.params.projectId, req.params.clusterId),
    );
    app.get(`${one}/namespaces`, { preHandler: view, schema: { tags, params: ClusterParams, response: { 200: NamespaceList } } }, async (req) =>
      svc.namespaces(req.params.projectId, req.params.clusterId),
    );
  };
}
