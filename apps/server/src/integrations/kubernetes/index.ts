import { assertReachable, connectionsWithin, OutboundRefused, policyOf, type AddressPolicy, type OutboundNetwork } from '../outbound/outbound.js';
import type * as k8s from '@kubernetes/client-node';
import { deferredMethods, lazy } from '../../platform/lazy.js';

let client: typeof k8s | undefined;
/** @kubernetes/client-node, loaded on first use: importing it costs about 2 s of start-up (issue 14). */
export const loadKubeClient = lazy(async () => (client = await import('@kubernetes/client-node')));

/**
 * The Kubernetes API adapter (DESIGN §2: @kubernetes/client-node 1.x; 2.x needs a newer Node). One narrow
 * interface: connect with an endpoint, a bearer token and an optional CA certificate, then verify the token's
 * rights, read the cluster's status figures and its namespaces. The KubeConfig is built in memory and never
 * written to disk; every request carries its own deadline; failures come back as a KubeFailure whose `kind`
 * says whether the cluster could not be reached (network, TLS, not a Kubernetes API) or refused the token.
 */

export interface KubeTarget {
  endpoint: string;
  token: string;
  /** PEM of the cluster's CA; without it the system's trusted CAs apply. */
  caCertificate?: string | null;
}

export type KubeFailureKind = 'unreachable' | 'refused';

export class KubeFailure extends Error {
  constructor(
    readonly kind: KubeFailureKind,
    message: string,
    readonly o: { status?: number; certificate?: boolean } = {},
  ) {
    super(message);
  }
}

export interface AccessCheck {
  verb: string;
  resource: string;
  group?: string;
  /** Omitted: cluster-wide. */
  namespace?: string;
}

export interface KubeStatusFigures {
  kubernetesVersion: string;
  pods: { running: number; succeeded: number; failed: number; pending: number; total: number };
  nodes: { total: number; ready: number };
  /** Average over nodes of usage as % of allocatable (2 decimals); null without metrics.k8s.io (or no right to it / to nodes). */
  utilization: { cpu: number; memory: number } | null;
  deployments: { total: number; available: number };
}

/** The figures and the pods and deployments they were counted from (the services rows are read from the same lists). */
export interface KubeStatus extends KubeStatusFigures {
  objects: { pods: k8s.V1Pod[]; deployments: k8s.V1Deployment[] };
}

export interface KubeAdapter {
  /** GET /version: the API server's gitVersion. */
  version(): Promise<string>;
  /** SelfSubjectAccessReviews for each check; the first denied one answers its description (and the review's reason). */
  firstDenied(checks: AccessCheck[]): Promise<{ check: AccessCheck; reason: string | null } | null>;
  /** Nodes, pods and deployments (in `namespace` when given, else cluster-wide), node metrics and the version. */
  status(namespace?: string | null): Promise<KubeStatus>;
  namespaces(): Promise<string[]>;
}

export interface KubeConnectOptions {
  timeoutMs?: number;
  /** Checks each connection as it is opened, redirects the client follows included (connectWithin sets it). */
  outbound?: AddressPolicy | null;
}
export type KubeConnector = (target: KubeTarget, o?: KubeConnectOptions) => KubeAdapter;

export const DEFAULT_KUBE_TIMEOUT_MS = 10_000;

/** The rights Gantry needs on a cluster: reading pods and creating deployments (in the namespace when one is associated). */
export function requiredAccess(namespace?: string | null): AccessCheck[] {
  const ns = namespace ? { namespace } : {};
  return [
    { verb: 'list', resource: 'pods', ...ns },
    { verb: 'create', resource: 'deployments', group: 'apps', ...ns },
  ];
}

export function describeCheck(c: AccessCheck): string {
  return `${c.verb} ${c.group ? `${c.resource}.${c.group}` : c.resource} ${c.namespace ? `in namespace ${c.namespace}` : 'cluster-wide'}`;
}

/** A Kubernetes quantity ("3900m", "16Gi", "512Ki", "50000000n", "1e3") as a number of base units. */
export function parseQuantity(q: string | number | undefined | null): number {
  if (q === undefined || q === null || q === '') return 0;
  if (typeof q === 'number') return q;
  const m = /^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)([a-zA-Z]*)$/.exec(q.trim());
  if (!m) return 0;
  const factors: Record<string, number> = {
    '': 1,
    n: 1e-9,
    u: 1e-6,
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    P: 1e15,
    E: 1e18,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
    Pi: 2 ** 50,
    Ei: 2 ** 60,
  };
  return Number(m[1]) * (factors[m[2]!] ?? 1);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Container waiting reasons that mean the pod is failing although its phase is still Running. */
const FAILING_WAIT_REASONS = new Set(['CrashLoopBackOff', 'Error']);

/**
 * Pods by phase. A crash-looping pod stays in phase Running (the kubelet restarts its container), so a pod whose
 * container is waiting with CrashLoopBackOff or Error counts as failed, not running. Unknown counts as pending.
 */
export function countPods(pods: k8s.V1Pod[]): KubeStatusFigures['pods'] {
  const out = { running: 0, succeeded: 0, failed: 0, pending: 0, total: pods.length };
  for (const p of pods) {
    const phase = p.status?.phase;
    const failing = [...(p.status?.containerStatuses ?? []), ...(p.status?.initContainerStatuses ?? [])].some((c) =>
      FAILING_WAIT_REASONS.has(c.state?.waiting?.reason ?? ''),
    );
    if (phase === 'Failed' || (phase === 'Running' && failing)) out.failed++;
    else if (phase === 'Running') out.running++;
    else if (phase === 'Succeeded') out.succeeded++;
    else out.pending++;
  }
  return out;
}

/** A deployment is available when all its desired replicas (default 1) are available. */
export function countDeployments(deployments: k8s.V1Deployment[]): KubeStatusFigures['deployments'] {
  return {
    total: deployments.length,
    available: deployments.filter((d) => (d.status?.availableReplicas ?? 0) >= (d.spec?.replicas ?? 1)).length,
  };
}

interface NodeMetric {
  metadata: { name: string };
  usage: { cpu: string; memory: string };
}

/** Average over the nodes that have metrics of usage / allocatable, in %, 2 decimals; null when none has. */
export function averageUtilization(nodes: k8s.V1Node[], metrics: NodeMetric[] | null): KubeStatusFigures['utilization'] {
  if (!metrics) return null;
  const byName = new Map(metrics.map((m) => [m.metadata.name, m.usage]));
  const shares = nodes.flatMap((n) => {
    const usage = byName.get(n.metadata?.name ?? '');
    const cpu = parseQuantity(n.status?.allocatable?.cpu);
    const memory = parseQuantity(n.status?.allocatable?.memory);
    if (!usage || cpu <= 0 || memory <= 0) return [];
    return [{ cpu: (parseQuantity(usage.cpu) / cpu) * 100, memory: (parseQuantity(usage.memory) / memory) * 100 }];
  });
  if (!shares.length) return null;
  return {
    cpu: round2(shares.reduce((a, s) => a + s.cpu, 0) / shares.length),
    memory: round2(shares.reduce((a, s) => a + s.memory, 0) / shares.length),
  };
}

const TLS_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_SIGNATURE_FAILURE',
  'UNABLE_TO_GET_ISSUER_CERT',
]);

/**
 * The message of a Kubernetes Status body. Anything else a server answered is left out: the endpoint is a user's
 * choice, and an error reason must not become a way to read what some other internal service answers.
 */
function statusMessage(body: unknown): string | undefined {
  let b = body;
  if (typeof body === 'string') {
    try {
      b = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const st = b as { kind?: unknown; message?: unknown } | null;
  return st?.kind === 'Status' && typeof st.message === 'string' && st.message ? st.message.slice(0, 300) : undefined;
}

/** Any error of a request as a KubeFailure with a reason a person can act on. */
export function toKubeFailure(err: unknown, endpoint: string, timeoutMs: number): KubeFailure {
  if (err instanceof KubeFailure) return err;
  // before the client is loaded no request was made, so nothing can be its ApiException
  if (client && err instanceof client.ApiException) {
    const status = err.code;
    const detail = statusMessage(err.body);
    if (status === 401)
      return new KubeFailure('refused', `the token is not valid (401 Unauthorized${detail && detail !== 'Unauthorized' ? `: ${detail}` : ''})`, { status });
    if (status === 403) return new KubeFailure('refused', `403 Forbidden${detail ? `: ${detail}` : ''}`, { status });
    if (detail) return new KubeFailure('unreachable', `the API server answered ${status}: ${detail}`, { status });
    return new KubeFailure('unreachable', `the endpoint answered HTTP ${status}, not as a Kubernetes API server`, { status });
  }
  const e = err as { name?: string; code?: string; type?: string; message?: string; cause?: { code?: string } } | undefined;
  const code = e?.code ?? e?.cause?.code;
  let host = endpoint;
  try {
    host = new URL(endpoint).host;
  } catch {
    /* keep the endpoint as written */
  }
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError' || e?.type === 'aborted')
    return new KubeFailure('unreachable', `no answer from ${host} within ${timeoutMs / 1000} s`);
  if (code && TLS_CODES.has(code)) {
    return new KubeFailure('unreachable', `the server's TLS certificate is not trusted (${code}); give the cluster's CA certificate`, { certificate: true });
  }
  if (code === 'ECONNREFUSED') return new KubeFailure('unreachable', `connection refused by ${host}`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new KubeFailure('unreachable', `host ${host} not found`);
  if (code === 'ECONNRESET' || code === 'EPIPE') return new KubeFailure('unreachable', `${host} closed the connection`);
  if (code === 'EPROTO' || code === 'ERR_SSL_WRONG_VERSION_NUMBER') return new KubeFailure('unreachable', `${host} does not speak TLS as expected (${code})`);
  if (code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return new KubeFailure('unreachable', `${host} is not reachable (${code})`);
  return new KubeFailure('unreachable', (e?.message ?? String(err)).replace(/^request to \S+ failed, reason: /, ''));
}

/** An in-memory KubeConfig for one endpoint + token (+ CA). */
export function kubeConfigFor(kube: typeof k8s, target: KubeTarget): k8s.KubeConfig {
  const kc = new kube.KubeConfig();
  const plainHttp = target.endpoint.startsWith('http:');
  kc.loadFromOptions({
    clusters: [
      {
        name: 'cluster',
        server: target.endpoint.replace(/\/+$/, ''),
        // client-node 1.x refuses http:// unless skipTLSVerify is set; there is no TLS to verify on plain HTTP anyway
        skipTLSVerify: plainHttp,
        ...(target.caCertificate ? { caData: Buffer.from(target.caCertificate).toString('base64') } : {}),
      },
    ],
    users: [{ name: 'gantry', token: target.token }],
    contexts: [{ name: 'gantry', cluster: 'cluster', user: 'gantry' }],
    currentContext: 'gantry',
  });
  return kc;
}

/**
 * Options for one request of the generated clients: its own deadline (middleware may set the request's AbortSignal)
 * and Gantry's User-Agent. A fresh one per request: the timer starts when it is made. With `outbound`, the request's
 * agent checks each connection it opens (the client follows redirects itself, to wherever a server sends it).
 */
export function requestDeadline(kube: typeof k8s, timeoutMs: number, outbound?: AddressPolicy | null): () => k8s.ConfigurationOptions {
  const userAgent = kube.setHeaderMiddleware('User-Agent', 'gantry');
  return () => ({
    middleware: [
      {
        pre: (ctx) => {
          ctx.setSignal(AbortSignal.timeout(timeoutMs));
          const agent = ctx.getAgent();
          if (outbound && agent) ctx.setAgent(connectionsWithin(agent, outbound));
          return userAgent.pre(ctx);
        },
        post: (res) => userAgent.post(res),
      },
    ],
    middlewareMergeStrategy: 'append',
  });
}

/** Connects to a cluster (lazily: nothing is loaded or sent until a method is called). */
export const connectKube: KubeConnector = (target, o) =>
  deferredMethods({ version: true, firstDenied: true, status: true, namespaces: true }, async () => connectLoaded(await loadKubeClient(), target, o));

function connectLoaded(kube: typeof k8s, target: KubeTarget, o: KubeConnectOptions = {}): KubeAdapter {
  const timeoutMs = o.timeoutMs ?? DEFAULT_KUBE_TIMEOUT_MS;
  const kc = kubeConfigFor(kube, target);
  const deadline = requestDeadline(kube, timeoutMs, o.outbound);
  const core = kc.makeApiClient(kube.CoreV1Api);
  const apps = kc.makeApiClient(kube.AppsV1Api);
  const custom = kc.makeApiClient(kube.CustomObjectsApi);
  const authz = kc.makeApiClient(kube.AuthorizationV1Api);
  const versionApi = kc.makeApiClient(kube.VersionApi);
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw toKubeFailure(err, target.endpoint, timeoutMs);
    }
  };
  /** A read the status may go without: null when forbidden (a namespace-bound token) or absent (no metrics server). */
  const optional = async <T>(fn: () => Promise<T>): Promise<T | null> => {
    try {
      return await call(fn);
    } catch (err) {
      if (err instanceof KubeFailure && (err.o.status === 403 || err.o.status === 404 || err.o.status === 503)) return null;
      throw err;
    }
  };

  const version = () =>
    call(async () => {
      const v = await versionApi.getCode({}, deadline());
      if (!v?.gitVersion) throw new KubeFailure('unreachable', 'the endpoint does not answer /version as a Kubernetes API server');
      return v.gitVersion;
    });

  return {
    version,
    async firstDenied(checks) {
      const reviews = await Promise.all(
        checks.map((c) =>
          call(() =>
            authz.createSelfSubjectAccessReview(
              {
                body: {
                  apiVersion: 'authorization.k8s.io/v1',
                  kind: 'SelfSubjectAccessReview',
                  spec: {
                    resourceAttributes: { verb: c.verb, resource: c.resource, group: c.group ?? '', ...(c.namespace ? { namespace: c.namespace } : {}) },
                  },
                },
              },
              deadline(),
            ),
          ),
        ),
      );
      const i = reviews.findIndex((r) => !r.status?.allowed);
      if (i < 0) return null;
      const st = reviews[i]!.status;
      return { check: checks[i]!, reason: st?.reason || st?.evaluationError || null };
    },
    async status(namespace) {
      const [kubernetesVersion, nodes, pods, deployments] = await Promise.all([
        version(),
        optional(() => core.listNode({}, deadline())),
        call(() => (namespace ? core.listNamespacedPod({ namespace }, deadline()) : core.listPodForAllNamespaces({}, deadline()))),
        call(() => (namespace ? apps.listNamespacedDeployment({ namespace }, deadline()) : apps.listDeploymentForAllNamespaces({}, deadline()))),
      ]);
      const nodeMetrics = nodes
        ? await optional(
            async () =>
              (await custom.listClusterCustomObject({ group: 'metrics.k8s.io', version: 'v1beta1', plural: 'nodes' }, deadline())) as { items: NodeMetric[] },
          )
        : null;
      const nodeItems = nodes?.items ?? [];
      return {
        kubernetesVersion,
        pods: countPods(pods.items),
        nodes: { total: nodeItems.length, ready: nodeItems.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')).length },
        utilization: averageUtilization(nodeItems, nodeMetrics?.items ?? null),
        deployments: countDeployments(deployments.items),
        objects: { pods: pods.items, deployments: deployments.items },
      };
    },
    async namespaces() {
      const list = await call(() => core.listNamespace({}, deadline()));
      return list.items.map((n) => n.metadata?.name ?? '').filter(Boolean);
    },
  };
}

/**
 * A connector that first checks the endpoint against OUTBOUND_NETWORK (a refusal is an unreachable
 * cluster, 400 on save): a cluster URL a user typed never makes the server probe its own loopback
 * or a cloud metadata address.
 */
export function connectWithin(network: OutboundNetwork, connect: KubeConnector = connectKube): KubeConnector {
  if (network === 'any') return connect;
  const outbound = policyOf(network);
  return (target, o) => {
    const kube = connect(target, { ...o, outbound });
    const reachable = () =>
      assertReachable(new URL(target.endpoint), network).catch((err: unknown) => {
        throw err instanceof OutboundRefused ? new KubeFailure('unreachable', err.message) : err;
      });
    const guarded = {} as Record<string, unknown>;
    for (const [name, method] of Object.entries(kube)) {
      guarded[name] =
        typeof method === 'function'
          ? async (...args: unknown[]) => {
              await reachable();
              return (method as (...a: unknown[]) => unknown).apply(kube, args);
            }
          : method;
    }
    return guarded as unknown as KubeAdapter;
  };
}
