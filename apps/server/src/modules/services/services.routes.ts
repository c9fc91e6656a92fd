import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ClusterServiceParams,
  CreateMicroserviceBody,
  DeployBody,
  DeployResult,
  DeployedListQuery,
  DeployedMicroserviceList,
  DeploymentHistoryPage,
  DeploymentStatus,
  KubernetesSpec,
  LOG_STREAM,
  Microservice,
  MicroserviceList,
  MicroserviceListQuery,
  MicroserviceParams,
  MicroserviceVersions,
  MicroserviceVersionsQuery,
  MicroservicesStatus,
  NamespacedServiceParams,
  OkBody,
  PodEventList,
  PodList,
  PodLogs,
  PodLogsQuery,
  ProjectIdParams,
  ServiceHistoryQuery,
  UndeployResult,
  UpdateMicroserviceBody,
} from '@gantry/contracts';
import { currentUser, type Guards } from '../../platform/auth.js';
import type { Realtime } from '../../platform/realtime.js';
import type { ServicesService } from './services.service.js';

/** What a followed log says when it ends because the user's access did. */
export const LOG_STREAM_ACCESS_ENDED = 'The log stream ended: your sign-in or your membership of the project changed';

/**
 * Kubernetes services (spec delivery §2, §3, §7 Services), under /ms-kube/projects/:projectId (the path list is in
 * the contracts' services.ts). Reads need 'view', changes and deploys 'change'. The dashboard's services table needs
 * the plan's kubernetesDashboard feature (402).
 */
export function servicesRoutes(deps: { services: ServicesService; guards: Guards; realtime: Pick<Realtime, 'onUserDisconnected'> }): FastifyPluginAsyncZod {
  const { services: svc, guards, realtime } = deps;
  return async (app) => {
    const view = guards.project('view');
    const change = guards.project('change');
    const tags = ['kubernetes services'];
    const all = '/projects/:projectId/microservices';
    const one = `${all}/:microserviceName`;
    const cluster = '/projects/:projectId/kubernetes/:clusterId';
    const inNs = `${cluster}/namespaces/:namespace/microservices/:microserviceName`;

    app.get(
      all,
      { preHandler: view, schema: { tags, params: ProjectIdParams, querystring: MicroserviceListQuery, response: { 200: MicroserviceList } } },
      async (req) => ({
        microservices: await svc.list(req.params.projectId, req.query.kind),
      }),
    );
    app.post(
      all,
      { preHandler: change, schema: { tags, params: ProjectIdParams, body: CreateMicroserviceBody, response: { 201: Microservice } } },
      async (req, reply) => reply.status(201).send(await svc.create(req.params.projectId, currentUser(req).id, req.body)),
    );
    app.get(one, { preHandler: view, schema: { tags, params: MicroserviceParams, response: { 200: Microservice } } }, async (req) =>
      svc.get(req.params.projectId, req.params.microserviceName),
    );
    app.put(
      one,
      { preHandler: change, schema: { tags, params: MicroserviceParams, body: UpdateMicroserviceBody, response: { 200: Microservice } } },
      async (req) => svc.update(req.params.projectId, req.params.microserviceName, req.body),
    );
    app.delete(one, { preHandler: change, schema: { tags, params: MicroserviceParams, response: { 200: OkBody } } }, async (req) => {
      await svc.remove(req.params.projectId, req.params.microserviceName);
      return { ok: true as const };
    });
    app.get(
      `${one}/versions`,
      { preHandler: view, schema: { tags, params: MicroserviceParams, querystring: MicroserviceVersionsQuery, response: { 200: MicroserviceVersions } } },
      async (req) => svc.versions(req.params.projectId, req.params.microserviceName, req.query),
    );
    app.get(
      `${one}/history`,
      { preHandler: view, schema: { tags, params: MicroserviceParams, querystring: ServiceHistoryQuery, response: { 200: DeploymentHistoryPage } } },
      async (req) => svc.history(req.params.projectId, req.params.microserviceName, req.query),
    );

    app.get(
      `${cluster}/microservices`,
      { preHandler: view, schema: { tags, params: ClusterServiceParams, querystring: DeployedListQuery, response: { 200: DeployedMicroserviceList } } },
      async (req) => svc.deployed(req.params.projectId, req.params.clusterId, req.query.namespace),
    );
    app.get(
      `${cluster}/microservices-status`,
      { preHandler: view, schema: { tags, params: ClusterServiceParams, response: { 200: MicroservicesStatus } } },
      async (req) => svc.microservicesStatus(req.params.projectId, req.params.clusterId),
    );

    app.post(
      `${inNs}/deploy`,
      { preHandler: change, schema: { tags, params: NamespacedServiceParams, body: DeployBody, response: { 200: DeployResult } } },
      async (req) => {
        const p = req.params;
        return svc.deployFromApi(p.projectId, p.clusterId, p.namespace, p.microserviceName, req.body, currentUser(req));
      },
    );
    app.delete(inNs, { preHandler: change, schema: { tags, params: NamespacedServiceParams, response: { 200: UndeployResult } } }, async (req) => {
      const p = req.params;
      return svc.undeploy(p.projectId, p.clusterId, p.namespace, p.microserviceName, currentUser(req));
    });
    app.get(`${inNs}/status`, { preHandler: view, schema: { tags, params: NamespacedServiceParams, response: { 200: DeploymentStatus } } }, async (req) => {
      const p = req.params;
      return svc.status(p.projectId, p.clusterId, p.namespace, p.microserviceName);
    });
    app.get(`${inNs}/pods`, { preHandler: view, schema: { tags, params: NamespacedServiceParams, response: { 200: PodList } } }, async (req) => {
      const p = req.params;
      return svc.pods(p.projectId, p.clusterId, p.namespace, p.microserviceName);
    });
    app.get(`${inNs}/events`, { preHandler: view, schema: { tags, params: NamespacedServiceParams, response: { 200: PodEventList } } }, async (req) => {
      const p = req.params;
      return svc.events(p.projectId, p.clusterId, p.namespace, p.microserviceName);
    });
    app.get(`${inNs}/spec`, { preHandler: view, schema: { tags, params: NamespacedServiceParams, response: { 200: KubernetesSpec } } }, async (req) => {
      const p = req.params;
      return svc.spec(p.projectId, p.clusterId, p.namespace, p.microserviceName);
    });
    app.get(
      `${inNs}/logs`,
      { preHandler: view, schema: { tags, params: NamespacedServiceParams, querystring: PodLogsQuery, response: { 200: PodLogs } } },
      async (req) => {
        const p = req.params;
        const q = req.query;
        return svc.logs(p.projectId, p.clusterId, p.namespace, p.microserviceName, {
          pod: q.pod,
          container: q.container,
          previous: q.previous === 'true',
          tail: q.tail,
        });
      },
    );
    // the live follow stream (contracts LOG_STREAM): errors before the first byte are ordinary JSON error answers
    app.get(`${inNs}/logs/stream`, { preHandler: view, schema: { tags, params: NamespacedServiceParams, querystring: PodLogsQuery } }, async (req, reply) => {
      const p = req.params;
      const q = req.query;
      let open = true;
      const write = (s: string) => open && reply.raw.write(s);
      const end = (message?: string) => {
        if (message) write(`event: ${LOG_STREAM.errorEvent}\ndata: ${JSON.stringify({ message })}\n\n`);
        write(`event: ${LOG_STREAM.endEvent}\ndata: {}\n\n`);
        if (open) reply.raw.end();
        open = false;
      };
      // the stream is allowed once, as it starts: it ends, on whichever node holds it, when the user's sockets are
      // disconnected (removed from a project, logged out, a new password), heard from here on even while it starts
      let accessEnded = false;
      let endForAccess = () => void (accessEnded = true);
      const forget = realtime.onUserDisconnected(currentUser(req).id, () => endForAccess());
      let stop: () => void;
      try {
        stop = await svc.followLogs(
          p.projectId,
          p.clusterId,
          p.namespace,
          p.microserviceName,
          { pod: q.pod, container: q.container, tail: q.tail },
          { text: (text) => write(`data: ${JSON.stringify({ text })}\n\n`), end },
        );
      } catch (err) {
        forget();
        throw err;
      }
      reply.hijack();
      reply.raw.writeHead(200, { 'Content-Type': LOG_STREAM.contentType, 'Cache-Control': 'no-cache', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
      reply.raw.write(': following\n\n');
      req.raw.on('close', () => {
        open = false;
        stop();
        forget();
      });
      endForAccess = () => {
        end(LOG_STREAM_ACCESS_ENDED);
        stop();
      };
      if (accessEnded) endForAccess();
    });
  };
}
