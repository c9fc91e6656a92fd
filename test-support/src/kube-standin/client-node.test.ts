import https from 'node:https';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeStandin, type KubeStandin } from './index.js';

let k: KubeStandin;
let kc: k8s.KubeConfig;

/** A raw request trusting the stand-in's CA (node's fetch cannot take a CA). */
function raw(
  path: string,
  o: { token?: string | null; method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${k.url}${path}`,
      {
        method: o.method ?? 'GET',
        ca: k.caPem,
        headers: { ...(o.token === null ? {} : { authorization: `Bearer ${o.token ?? k.adminToken}` }), ...o.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(o.body);
  });
}

const deployment = (name: string, replicas?: number): k8s.V1Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default', labels: { app: name } },
  spec: {
    ...(replicas !== undefined ? { replicas } : {}),
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: `${name}:1`, resources: { requests: { cpu: '100m' } } }] } },
  },
});

beforeAll(async () => {
  k = await startKubeStandin({ tickMs: 20 });
  kc = new k8s.KubeConfig();
  kc.loadFromString(k.kubeconfig());
});
afterAll(() => k?.close());

describe('kube stand-in driven by @kubernetes/client-node 1.x', () => {
  it('reads discovery, nodes and namespaces', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const nodes = await core.listNode();
    expect(nodes.items.map((n) => n.metadata?.name)).toEqual(['standin-node-1', 'standin-node-2', 'standin-node-3']);
    expect(nodes.items[0].status?.allocatable?.memory).toMatch(/Ki$/);
    const ns = await core.listNamespace();
    expect(ns.items.map((n) => n.metadata?.name)).toEqual(['default', 'kube-system', 'kube-public', 'kube-node-lease']);
    await core.createNamespace({ body: { metadata: { name: 'apps' } } });
    expect((await core.readNamespace({ name: 'apps' })).status?.phase).toBe('Active');
    const version = await kc.makeApiClient(k8s.VersionApi).getCode();
    expect(version.gitVersion).toBe('v1.30.0-gantry-standin');
    const groups = await kc.makeApiClient(k8s.ApisApi).getAPIVersions();
    expect(groups.groups.map((g) => g.name)).toEqual(['apps', 'autoscaling', 'authorization.k8s.io', 'metrics.k8s.io']);
  });

  it('server-side applies, lists pods by label and phase, reads logs and metrics', async () => {
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const applied = await apps.patchNamespacedDeployment(
      { name: 'api', namespace: 'default', body: deployment('api', 2), fieldManager: 'gantry', force: true },
      k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply),
    );
    expect(applied.metadata?.managedFields?.[0]).toMatchObject({ manager: 'gantry', operation: 'Apply' });
    await k.settle();
    const pods = await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=api', fieldSelector: 'status.phase=Running' });
    expect(pods.items).toHaveLength(2);
    expect(pods.items[0].metadata?.ownerReferences?.[0].kind).toBe('ReplicaSet');
    expect((await core.listNamespacedPod({ namespace: 'default', fieldSelector: 'status.phase=Pending' })).items).toEqual([]);
    const name = pods.items[0].metadata!.name!;
    expect(await core.readNamespacedPodLog({ name, namespace: 'default', container: 'app', tailLines: 1 })).toBe('app is ready\n');
    const d = await apps.readNamespacedDeployment({ name: 'api', namespace: 'default' });
    expect(d.status).toMatchObject({ availableReplicas: 2, readyReplicas: 2 });
    k.setPodMetrics('default', name, { cpu: '50m', memory: '32Mi' });
    const m = await new k8s.Metrics(kc).getPodMetrics('default');
    expect(m.items.find((x) => x.metadata.name === name)?.containers[0].usage).toEqual({ cpu: '50000000n', memory: '32768Ki' });
    const review = await kc
      .makeApiClient(k8s.AuthorizationV1Api)
      .createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: { verb: 'delete', resource: 'pods', namespace: 'default' } } } });
    expect(review.status?.allowed).toBe(true);
  });

  it('watches pods with ADDED, MODIFIED and DELETED and resourceVersions', async () => {
    const seen: { type: string; name: string; phase?: string; rv: string }[] = [];
    const watch = new k8s.Watch(kc);
    const req = await watch.watch(
      '/api/v1/namespaces/default/pods',
      { labelSelector: 'app=w' },
      (type, obj: k8s.V1Pod) => {
        seen.push({ type, name: obj.metadata!.name!, phase: obj.status?.phase, rv: obj.metadata!.resourceVersion! });
      },
      () => undefined,
    );
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('w', 1) });
    await k.settle();
    await apps.deleteNamespacedDeployment({ name: 'w', namespace: 'default' });
    await k.settle();
    req.abort();
    expect(seen.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(seen[1].phase).toBe('Running');
    expect(Number(seen[2].rv)).toBeGreaterThan(Number(seen[1].rv));

    // resuming from a resourceVersion replays what came after it; a too old one is 410 Gone in an ERROR event
    const replay = await raw(`/apis/apps/v1/namespaces/default/deployments?watch=1&resourceVersion=${Number(seen[0].rv) - 1}&timeoutSeconds=1`);
    const events = replay.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.type)).toContain('DELETED');
    expect(events.every((e) => e.object.kind === 'Deployment')).toBe(true);
  });

  it('answers 401 and 403 with Status objects', async () => {
    const r = await raw('/api/v1/pods', { token: null });
    expect([r.status, JSON.parse(r.body)]).toEqual([
      401,
      { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 },
    ]);
    const t = k.addToken('viewer', [{ verbs: ['get', 'list'], resources: ['*'], namespaces: ['default'] }]);
    const f = await raw('/apis/apps/v1/namespaces/default/deployments/api', { token: t, method: 'DELETE' });
    expect(f.status).toBe(403);
    expect(JSON.parse(f.body)).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: 'deployments.apps "api" is forbidden: User "viewer" cannot delete resource "deployments" in API group "apps" in the namespace "default"',
    });
    const nf = await raw('/api/v1/namespaces/default/pods/nope');
    expect(JSON.parse(nf.body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'pods "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'pods' },
      code: 404,
    });
  });

  it('keeps an HPA-managed replica count when a re-apply leaves replicas out', async () => {
    const apps = kc.makeApiClient(k8s.AppsV1Api);
    const apply = k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.ServerSideApply);
    await apps.patchNamespacedDeployment({ name: 'scaled', namespace: 'default', body: deployment('scaled', 1), fieldManager: 'gantry' }, apply);
    await kc.makeApiClient(k8s.AutoscalingV2Api).createNamespacedHorizontalPodAutoscaler({
      namespace: 'default',
      body: {
        metadata: { name: 'scaled' },
        spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'scaled' }, minReplicas: 4, maxReplicas: 6 },
      },
    });
    await k.settle();
    expect((await apps.readNamespacedDeployment({ name: 'scaled', namespace: 'default' })).spec?.replicas).toBe(4);
    const again = await apps.patchNamespacedDeployment({ name: 'scaled', namespace: 'default', body: deployment('scaled'), fieldManager: 'gantry' }, apply);
    expect(again.spec?.replicas).toBe(4);
    const hpa = await kc.makeApiClient(k8s.AutoscalingV2Api).readNamespacedHorizontalPodAutoscaler({ name: 'scaled', namespace: 'default' });
    expect(hpa.status).toMatchObject({ currentReplicas: 4, desiredReplicas: 4 });
  });

  it('stores dockerconfigjson secrets and rejects one without its key', async () => {
    const core = kc.makeApiClient(k8s.CoreV1Api);
    const cfg = Buffer.from(JSON.stringify({ auths: { 'r.local': { auth: Buffer.from('u:p').toString('base64') } } })).toString('base64');
    const s = await core.createNamespacedSecret({
      namespace: 'default',
      body: { metadata: { name: 'pull' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': cfg } },
    });
    expect(s.type).toBe('kubernetes.io/dockerconfigjson');
    await expect(
      core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 'bad' }, type: 'kubernetes.io/dockerconfigjson', data: {} } }),
    ).rejects.toMatchObject({ code: 422 });
  });
});

describe('the bench seed', () => {
  it('starts 50 nodes, 300 deployments and 2,000 running pods quickly', async () => {
    const t0 = Date.now();
    const big = await startKubeStandin({ seed: { nodes: 50, deployments: 300, pods: 2000 } });
    try {
      const started = Date.now() - t0;
      expect(big.list('nodes')).toHaveLength(50);
      expect(big.list('deployments')).toHaveLength(300);
      const pods = big.list('pods');
      expect(pods).toHaveLength(2000);
      expect(pods.every((p) => p.status.phase === 'Running')).toBe(true);
      expect(big.list('deployments').every((d) => d.status.availableReplicas === d.spec.replicas)).toBe(true);
      const r = await new Promise<number>((resolve, reject) => {
        https
          .get(`${big.url}/api/v1/pods`, { ca: big.caPem, headers: { authorization: `Bearer ${big.adminToken}` } }, (res) => {
            let n = 0;
            res.on('data', (c: Buffer) => (n += c.length));
            res.on('end', () => resolve(n));
          })
          .on('error', reject);
      });
      expect(r).toBeGreaterThan(1_000_000);
      expect(started).toBeLessThan(10_000);
    } finally {
      await big.close();
    }
  });
});
