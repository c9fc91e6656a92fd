import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { TokenRegistry, type TokenRule } from './auth.js';
import { Controllers } from './controllers.js';
import { MetricsBook, type UsageInput } from './metrics.js';
import { R } from './resources.js';
import { handle } from './server.js';
import { KubeState } from './state.js';
import type { KObj } from './store.js';
import { makeTls } from './tls.js';
import { seedLarge, seedNode, type SeedOptions } from './seed.js';

/**
 * A Kubernetes API server stand-in (DESIGN §7): HTTPS on 127.0.0.1 with a private CA, bearer tokens with
 * RBAC-like rules, the real REST JSON for core/v1, apps/v1, autoscaling/v2, authorization.k8s.io/v1 and
 * (optionally) metrics.k8s.io/v1beta1, server-side apply with managedFields, watches, pod logs, and
 * controllers enough for a dashboard. Checked with kubectl and @kubernetes/client-node.
 */

export type { TokenRule } from './auth.js';
export type { KObj } from './store.js';
export type { UsageInput } from './metrics.js';

export interface KubeStandinOptions {
  /** Nodes created at start (default 3), named standin-node-1... */
  nodes?: number;
  /** metrics.k8s.io served (default true); false answers 404 there, as a cluster without metrics-server. */
  metrics?: boolean;
  /** How long a scheduled pod takes to start (default 50 ms). */
  tickMs?: number;
  /** Namespaces created besides default, kube-system, kube-public and kube-node-lease. */
  namespaces?: string[];
  /** The bench-sized cluster: e.g. { nodes: 50, deployments: 300, pods: 2000 } (pods start Running at once). */
  seed?: SeedOptions;
  /** The admin token's value (default random). */
  adminToken?: string;
}

export interface KubeStandin {
  /** https://127.0.0.1:<port> */
  url: string;
  /** PEM of the cluster CA (a kubeconfig's certificate-authority-data, base64 of this). */
  caPem: string;
  /** A token allowed everything (user "admin"). */
  adminToken: string;
  /** Issues a token for user with rules (default: everything). */
  addToken(user: string, rules?: TokenRule[]): string;
  revokeToken(token: string): void;
  /** A kubeconfig (YAML) for the stand-in with token (default the admin token) and namespace. */
  kubeconfig(o?: { token?: string; namespace?: string }): string;

  // test API (not HTTP)
  get(
    kind: 'pods' | 'deployments' | 'replicasets' | 'services' | 'secrets' | 'events' | 'namespaces' | 'nodes' | 'horizontalpodautoscalers',
    namespace: string | undefined,
    name: string,
  ): KObj | undefined;
  list(
    kind: 'pods' | 'deployments' | 'replicasets' | 'services' | 'secrets' | 'events' | 'namespaces' | 'nodes' | 'horizontalpodautoscalers',
    namespace?: string,
  ): KObj[];
  /** Appends a line to a running container's log (follow streams get it). Container defaults to the first. */
  addLogLine(namespace: string, pod: string, text: string, container?: string): void;
  /** Fails a pod: CrashLoopBackOff (phase Running, the default) or, with crashLoop false, phase Failed (its ReplicaSet replaces it). */
  failPod(namespace: string, pod: string, o?: { crashLoop?: boolean; message?: string; reason?: string }): void;
  /** Sets a pod's usage (whole pod or per container) and a node's usage as metrics-server would report them. */
  setPodMetrics(namespace: string, pod: string, usage: UsageInput | Record<string, UsageInput>): void;
  setNodeMetrics(node: string, usage: UsageInput): void;
  /** Turns metrics.k8s.io on or off at run time. */
  setMetricsEnabled(on: boolean): void;
  addNode(name?: string, o?: { cpu?: string; memory?: string }): KObj;
  setNodeReady(name: string, ready: boolean): void;
  /** Resolves once controllers have nothing left to do (pods started, statuses written). */
  settle(ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startKubeStandin(options: KubeStandinOptions = {}): Promise<KubeStandin> {
  const tls = makeTls();
  const state = new KubeState();
  const metrics = new MetricsBook(options.metrics ?? true);
  const tokens = new TokenRegistry();
  const admin = tokens.add({ user: 'admin', groups: ['system:masters', 'system:authenticated'], token: options.adminToken });
  const tickMs = options.tickMs ?? 50;
  const controllers = new Controllers(state, metrics, { tickMs });

  for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease', ...(options.namespaces ?? [])]) {
    state.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }, { manager: 'kube-apiserver' });
  }
  const nodeCount = options.seed?.nodes ?? options.nodes ?? 3;
  for (let i = 1; i <= nodeCount; i++) seedNode(state, `standin-node-${i}`, i);
  if (options.seed) seedLarge(state, controllers, options.seed);

  let url = '';
  const server = https.createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    void handle({ state, controllers, metrics, tokens, url: () => url }, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const defOf = (kind: string) => (({ horizontalpodautoscalers: R.hpas }) as Record<string, typeof R.pods>)[kind] ?? (R as Record<string, typeof R.pods>)[kind];
  const pod = (ns: string, name: string) => state.get(R.pods, ns, name);

  return {
    url,
    caPem: tls.caPem,
    adminToken: admin.token,
    addToken: (user, rules) => tokens.add({ user, rules }).token,
    revokeToken: (t) => tokens.revoke(t),
    kubeconfig: (o = {}) =>
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: standin',
        '  cluster:',
        `    server: ${url}`,
        `    certificate-authority-data: ${Buffer.from(tls.caPem).toString('base64')}`,
        'users:',
        '- name: standin-user',
        '  user:',
        `    token: ${o.token ?? admin.token}`,
        'contexts:',
        '- name: standin',
        '  context:',
        '    cluster: standin',
        '    user: standin-user',
        `    namespace: ${o.namespace ?? 'default'}`,
        'current-context: standin',
        '',
      ].join('\n'),
    get: (kind, ns, name) => state.store.get(defOf(kind), ns, name),
    list: (kind, ns) => state.store.list(defOf(kind), ns),
    addLogLine: (ns, name, text, container) => {
      const p = pod(ns, name);
      state.logs.append(p.metadata.uid, container ?? p.spec.containers[0].name, text);
    },
    failPod: (ns, name, o = {}) => controllers.failPod(pod(ns, name), o),
    setPodMetrics: (ns, name, usage) => {
      metrics.setPod(ns, name, usage);
      controllers.kick();
    },
    setNodeMetrics: (name, usage) => metrics.setNode(name, usage),
    setMetricsEnabled: (on) => {
      metrics.enabled = on;
      controllers.kick();
    },
    addNode: (name, o) => seedNode(state, name ?? `standin-node-${state.store.list(R.nodes).length + 1}`, state.store.list(R.nodes).length + 1, o),
    setNodeReady: (name, ready) => {
      const n = state.get(R.nodes, undefined, name);
      const conditions = n.status.conditions.map((c: KObj) =>
        c.type === 'Ready'
          ? {
              ...c,
              status: ready ? 'True' : 'Unknown',
              reason: ready ? 'KubeletReady' : 'NodeStatusUnknown',
              message: ready ? 'kubelet is posting ready status' : 'Kubelet stopped posting node status.',
              lastTransitionTime: state.now(),
            }
          : c,
      );
      state.writeStatus(R.nodes, n, { ...n.status, conditions });
    },
    settle: async (ms = tickMs * 4 + 50) => {
      let last = '';
      for (;;) {
        await new Promise((r) => setTimeout(r, ms));
        if (state.store.resourceVersion === last) return;
        last = state.store.resourceVersion;
      }
    },
    close: async () => {
      controllers.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
