import crypto from 'node:crypto';
import {
  KUBERNETES_TRIAL_DAYS,
  SENSITIVE_PLACEHOLDER,
  STARTER_PLAN_ID,
  clusterMessages,
  type Cluster,
  type ClusterList,
  type ClusterStatus,
  type CreateClusterBody,
  type NamespaceList,
  type UpdateClusterBody,
} from '@gantry/contracts';
import type { SecretBox } from '../../platform/secrets.js';
import { AppError, Conflict, NotFound, PlanLimit, Validation } from '../../platform/errors.js';
import {
  DEFAULT_KUBE_TIMEOUT_MS,
  KubeFailure,
  describeCheck,
  requiredAccess,
  toKubeFailure,
  type KubeConnector,
  type KubeStatusFigures,
  type KubeTarget,
} from '../../integrations/kubernetes/index.js';
import type { BillingService } from '../billing/billing.port.js';
import type { ClusterConnection, ClusterServicesSource, ClustersPort } from './clusters.port.js';
import type { ClusterRow, ClustersStore } from './clusters.store.js';

interface Log {
  warn(obj: object, msg?: string): void;
}

/** How long the detailed list waits for any one cluster's status before calling it unreachable. */
export const LIST_STATUS_TIMEOUT_MS = 4_000;

function pgCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** `p`, or a KubeFailure once `ms` passed (the requests inside carry their own deadlines; this bounds the whole). */
function within<T>(p: Promise<T>, ms: number, host: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new KubeFailure('unreachable', `no answer from ${host} within ${ms / 1000} s`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

const hostOf = (endpoint: string) => {
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
};

export function createClustersService(deps: {
  store: ClustersStore;
  secrets: SecretBox;
  billing: Pick<BillingService, 'assertFeature' | 'subscription' | 'history'>;
  connect: KubeConnector;
  now?: () => Date;
  /** Per request on create/update/status (default 10 s). */
  timeoutMs?: number;
  /** The whole status of one cluster in the detailed list (default 4 s). */
  listStatusTimeoutMs?: number;
  log?: Log;
}) {
  const { store, secrets, billing, connect } = deps;
  const timeoutMs = deps.timeoutMs ?? DEFAULT_KUBE_TIMEOUT_MS;
  const listStatusTimeoutMs = deps.listStatusTimeoutMs ?? LIST_STATUS_TIMEOUT_MS;
  const now = deps.now ?? (() => new Date());
  let servicesOn: ClusterServicesSource = async () => [];

  function toApi(row: ClusterRow): Cluster {
    return {
      id: row.name,
      name: row.name,
      endpoint: row.endpoint,
      apiToken: SENSITIVE_PLACEHOLDER,
      type: 'personal',
      associatedNamespace: row.associatedNamespace,
      caCertificate: row.caCertificate,
      projectId: row.projectId,
      createdAt: row.createdAt.toISOString(),
    };
  }
  const targetOf = (row: ClusterRow): KubeTarget => ({ endpoint: row.endpoint, token: secrets.open(row.tokenSealed), caCertificate: row.caCertificate });

  async function getRow(projectId: string, name: string): Promise<ClusterRow> {
    const row = await store.get(projectId, name);
    if (!row) throw new NotFound(clusterMessages.notFound);
    return row;
  }

  const failureMessage = (f: KubeFailure) => (f.kind === 'refused' ? clusterMessages.refused(f.message) : clusterMessages.unreachable(f.message));

  /**
   * Proves the cluster before anything is saved: GET /version (reachable, a Kubernetes API, the token valid), then
   * SelfSubjectAccessReviews for what Gantry needs (list pods, create deployments; in the associated namespace when
   * set, else cluster-wide). 400 with the reason, on the field to fix, otherwise.
   */
  async function verify(target: KubeTarget, namespace: string | null) {
    try {
      const kube = connect(target, { timeoutMs });
      await kube.version();
      const denied = await kube.firstDenied(requiredAccess(namespace));
      if (denied) throw new KubeFailure('refused', `it may not ${describeCheck(denied.check)}${denied.reason ? ` (${denied.reason})` : ''}`, { status: 403 });
    } catch (err) {
      const f = toKubeFailure(err, target.endpoint, timeoutMs);
      const message = failureMessage(f);
      const field = f.o.certificate ? 'caCertificate' : f.kind === 'refused' ? 'apiToken' : 'endpoint';
      deps.log?.warn({ endpoint: target.endpoint, reason: f.message }, 'kubernetes cluster not accepted');
      throw new AppError(400, message, f.kind === 'refused' ? 'ClusterRefused' : 'ClusterUnreachable', { fields: { [field]: [message] }, reason: f.message });
    }
  }

  function toStatus(row: ClusterRow, s: KubeStatusFigures): ClusterStatus {
    return {
      name: row.name,
      endpoint: row.endpoint,
      associatedNamespace: row.associatedNamespace,
      podStatus: {
        runningPods: s.pods.running,
        succeededPods: s.pods.succeeded,
        failedPods: s.pods.failed,
        pendingPods: s.pods.pending,
        totalPods: s.pods.total,
      },
      nodesStatus: {
        totalNodes: s.nodes.total,
        readyNodes: s.nodes.ready,
        utilization: s.utilization ? { averageCpuUtilization: s.utilization.cpu, averageMemoryUtilization: s.utilization.memory } : null,
      },
      deploymentsStatus: s.deployments,
      kubernetesVersion: s.kubernetesVersion,
      microservicesStatus: [],
    };
  }
  const readKube = (row: ClusterRow, ms: number) => connect(targetOf(row), { timeoutMs: ms }).status(row.associatedNamespace);
  const readStatus = async (row: ClusterRow, ms: number) => toStatus(row, await readKube(row, ms));

  /** A cluster failure on a read: 502 with the reason (the cluster is down or refuses; Gantry itself is fine). */
  function upstream(err: unknown): never {
    if (err instanceof KubeFailure)
      throw new AppError(502, failureMessage(err), err.kind === 'refused' ? 'ClusterRefused' : 'ClusterUnreachable', { reason: err.message });
    throw err;
  }

  const port: ClustersPort = {
    /**
     * Spec: the dashboard is a plan feature, and a 30-day trial on the free plan (counted from the project's start,
     * its first subscription). Paid, promotional and admin-set plans carry it without end.
     */
    async assertDashboard(projectId) {
      await billing.assertFeature(projectId, 'kubernetesDashboard');
      const { plan } = await billing.subscription(projectId);
      if (plan.id !== STARTER_PLAN_ID) return;
      const starts = (await billing.history(projectId)).map((h) => Date.parse(h.startDate));
      const since = starts.length ? Math.min(...starts) : now().getTime();
      if (now().getTime() - since >= KUBERNETES_TRIAL_DAYS * 86_400_000) throw new PlanLimit(clusterMessages.trialExpired);
    },
    serveServices(source) {
      servicesOn = source;
    },
    async connectionFor(projectId, clusterId): Promise<ClusterConnection> {
      const row = await getRow(projectId, clusterId);
      return {
        clusterId: row.name,
        endpoint: row.endpoint,
        token: secrets.open(row.tokenSealed),
        caCertificate: row.caCertificate,
        associatedNamespace: row.associatedNamespace,
      };
    },
  };

  return {
    ...port,
    /** With `detailed`, every cluster's status in parallel, each bounded by a short timeout: a slow one is reported unreachable, never waited for. */
    async list(projectId: string, detailed: boolean): Promise<ClusterList> {
      const rows = await store.list(projectId);
      if (!detailed) return { kuberneteses: rows.map(toApi) };
      const kuberneteses = await Promise.all(
        rows.map(async (row) => {
          try {
            const status = await within(readStatus(row, listStatusTimeoutMs), listStatusTimeoutMs, hostOf(row.endpoint));
            return { ...toApi(row), status, unreachableReason: null };
          } catch (err) {
            const f = toKubeFailure(err, row.endpoint, listStatusTimeoutMs);
            return { ...toApi(row), status: null, unreachableReason: failureMessage(f) };
          }
        }),
      );
      return { kuberneteses };
    },
    async get(projectId: string, clusterId: string): Promise<Cluster> {
      return toApi(await getRow(projectId, clusterId));
    },
    /** Connects a cluster once it answered and granted the rights Gantry needs; nothing is saved otherwise. */
    async create(projectId: string, userId: string | null, body: CreateClusterBody): Promise<Cluster> {
      if (await store.get(projectId, body.name)) throw new Conflict(clusterMessages.exists(body.name));
      const target: KubeTarget = { endpoint: body.endpoint, token: body.apiToken, caCertificate: body.caCertificate || null };
      const namespace = body.associatedNamespace || null;
      await verify(target, namespace);
      try {
        return toApi(
          await store.insert({
            id: crypto.randomUUID(),
            projectId,
            name: body.name,
            endpoint: body.endpoint,
            tokenSealed: secrets.seal(body.apiToken),
            caCertificate: target.caCertificate ?? null,
            associatedNamespace: namespace,
            type: body.type,
            createdBy: userId,
          }),
        );
      } catch (err) {
        if (pgCode(err) === '23505') throw new Conflict(clusterMessages.exists(body.name));
        throw err;
      }
    },
    /**
     * The name stays. apiToken sent as '(sensitive)', empty or not at all keeps the stored one; caCertificate left out
     * keeps the stored one ('' removes it); associatedNamespace left out means none (the form sends it only when on).
     */
    async update(projectId: string, clusterId: string, body: UpdateClusterBody): Promise<Cluster> {
      const row = await getRow(projectId, clusterId);
      const sent = body.apiToken?.trim();
      const keepsToken = !sent || sent === SENSITIVE_PLACEHOLDER;
      // The stored token goes only where it went before: with it kept, a new endpoint would have Gantry hand it to any
      // server a write member names (the API never answers it).
      if (keepsToken && body.endpoint !== row.endpoint) {
        throw new Validation(clusterMessages.tokenForNewEndpoint, { apiToken: [clusterMessages.tokenForNewEndpoint] });
      }
      const token = keepsToken ? secrets.open(row.tokenSealed) : sent;
      const caCertificate = body.caCertificate === undefined ? row.caCertificate : body.caCertificate || null;
      const namespace = body.associatedNamespace || null;
      await verify({ endpoint: body.endpoint, token, caCertificate }, namespace);
      return toApi(await store.update(row.id, { endpoint: body.endpoint, tokenSealed: secrets.seal(token), caCertificate, associatedNamespace: namespace }));
    },
    async remove(projectId: string, clusterId: string): Promise<void> {
      await store.delete((await getRow(projectId, clusterId)).id);
    },
    /** The cluster dashboard's figures and the services Gantry deployed there (402 without the dashboard: see assertDashboard). */
    async status(projectId: string, clusterId: string): Promise<ClusterStatus> {
      await port.assertDashboard(projectId);
      const row = await getRow(projectId, clusterId);
      try {
        // one list of the pods and deployments for both the figures and the services rows
        const live = await readKube(row, timeoutMs);
        return { ...toStatus(row, live), microservicesStatus: await servicesOn(projectId, clusterId, live.objects) };
      } catch (err) {
        return upstream(err);
      }
    },
    /**
     * The cluster's namespaces; with an associated namespace only that one (Gantry works nowhere else, and a token
     * bound to one namespace usually may not list the others).
     */
    async namespaces(projectId: string, clusterId: string): Promise<NamespaceList> {
      const row = await getRow(projectId, clusterId);
      if (row.associatedNamespace) return { namespaces: [{ metadata: { name: row.associatedNamespace } }] };
      try {
        const names = await connect(targetOf(row), { timeoutMs }).namespaces();
        return { namespaces: names.map((name) => ({ metadata: { name } })) };
      } catch (err) {
        return upstream(err);
      }
    },
  };
}
export type ClustersService = ReturnType<typeof createClustersService>;
