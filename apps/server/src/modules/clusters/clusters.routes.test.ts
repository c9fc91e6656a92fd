import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import net from 'node:net';
import { eq } from 'drizzle-orm';
import * as k8s from '@kubernetes/client-node';
import { KUBERNETES_TRIAL_DAYS, PRO_PLAN_ID, SENSITIVE_PLACEHOLDER, clusterMessages } from '@gantry/contracts';
import { startKubeStandin, type KubeStandin } from '@gantry/test-support';
import { registerUser, bearer, createProject, addMember } from '../../../test/helpers.js';
import { expectDocumented, expectEveryProjectRouteListed, expectPlanGated, expectProjectGuards, type GuardedRoute } from '../../../test/route-guards.js';
import { parseQuantity } from '../../integrations/kubernetes/index.js';
import { createClustersTestApp } from './clusters.test-app.js';
import { kubernetesClusters } from './clusters.tables.js';
import type { ClustersPort } from './clusters.port.js';

let t: Awaited<ReturnType<typeof createClustersTestApp>>;
let k: KubeStandin;
let gone: KubeStandin;
let owner: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let otherProjectId: string;
const members: Record<'write' | 'read', { idToken: string }> = {} as never;
/** The clusters module's clock (the dashboard trial); billing keeps the real one. */
let clock = () => new Date();

/** A TCP relay to the stand-in that can be switched to hold new connections without ever answering (a slow cluster). */
let relay: net.Server;
let relayUrl: string;
let relayHolds = false;
const relaySockets = new Set<net.Socket>();

const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });

beforeAll(async () => {
  k = await startKubeStandin({ nodes: 3, metrics: true, tickMs: 50, namespaces: ['team-a'] });
  gone = await startKubeStandin({ nodes: 1, tickMs: 50 });
  const target = Number(new URL(k.url).port);
  relay = net.createServer((socket) => {
    relaySockets.add(socket);
    if (relayHolds) return;
    const upstream = net.connect(target, '127.0.0.1');
    relaySockets.add(upstream);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  relayUrl = `https://127.0.0.1:${(relay.address() as net.AddressInfo).port}`;

  t = await createClustersTestApp({ overrides: { clusters: { listStatusTimeoutMs: 4_000, now: () => clock() } } });
  owner = await registerUser(t, 'owner@example.com');
  outsider = await registerUser(t, 'outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Alpha');
  otherProjectId = await createProject(t, outsider.idToken, 'Theirs');
  for (const p of ['write', 'read'] as const) members[p] = await addMember(t, owner.idToken, projectId, `${p}@example.com`, p);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await k?.close();
  await gone?.close();
  for (const s of relaySockets) s.destroy();
  await new Promise<void>((resolve) => (relay ? relay.close(() => resolve()) : resolve()));
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, idToken?: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-kube${url}`, headers: idToken ? bearer(idToken) : {}, payload });
const base = (p = projectId) => `/projects/${p}/kubernetes`;
const body = (name: string, o: { endpoint?: string; apiToken?: string; associatedNamespace?: string; caCertificate?: string | null } = {}) => ({
  name,
  endpoint: o.endpoint ?? k.url,
  apiToken: o.apiToken ?? k.adminToken,
  type: 'personal',
  ...(o.associatedNamespace ? { associatedNamespace: o.associatedNamespace } : {}),
  ...(o.caCertificate === null ? {} : { caCertificate: o.caCertificate ?? k.caPem }),
});
const rowOf = async (name: string, p = projectId) =>
  (await t.database.db.select().from(kubernetesClusters).where(eq(kubernetesClusters.name, name))).find((r) => r.projectId === p);

/** Rights enough for Gantry in team-a only (a RoleBinding there). */
const teamToken = () =>
  k.addToken('team-a-deployer', [
    { verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], resources: ['*'], apiGroups: ['*'], namespaces: ['team-a'] },
  ]);

describe('clusters CRUD', () => {
  it('connects a cluster after it answered and granted the rights (write may); the token is sealed and never answered', async () => {
    const res = await call('POST', base(), members.write.idToken, body('main'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      id: 'main',
      name: 'main',
      endpoint: k.url,
      apiToken: SENSITIVE_PLACEHOLDER,
      type: 'personal',
      associatedNamespace: null,
      caCertificate: k.caPem.trim(),
      projectId,
      createdAt: expect.any(String),
    });
    const row = (await rowOf('main'))!;
    expect(JSON.stringify(row)).not.toContain(k.adminToken);
    expect(t.app.services.secrets.open(row.tokenSealed)).toBe(k.adminToken);
    const list = await call('GET', base(), members.read.idToken);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ kuberneteses: [expect.objectContaining({ id: 'main', apiToken: SENSITIVE_PLACEHOLDER })] });
    expect(list.body).not.toContain(k.adminToken);
    expect(list.json().kuberneteses[0]).not.toHaveProperty('status');
  });

  it('answers 409 for a name already used in the project, and allows it in another project', async () => {
    const dup = await call('POST', base(), owner.idToken, body('main'));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(clusterMessages.exists('main'));
    expect((await call('POST', base(otherProjectId), outsider.idToken, body('main'))).statusCode).toBe(201);
  });

  it.each([
    [{ name: 'Bad_Name' }, 'name', clusterMessages.nameRule],
    [{ name: '' }, 'name', clusterMessages.nameRequired],
    [{ endpoint: 'ftp://x.example' }, 'endpoint', clusterMessages.endpointRule],
    [{ endpoint: '' }, 'endpoint', clusterMessages.endpointRequired],
    [{ apiToken: '  ' }, 'apiToken', clusterMessages.tokenRequired],
    [{ associatedNamespace: 'abc' }, 'associatedNamespace', clusterMessages.namespaceRule],
    [{ associatedNamespace: 'Team-A1' }, 'associatedNamespace', clusterMessages.namespaceRule],
    [{ caCertificate: 'not a pem' }, 'caCertificate', clusterMessages.caRule],
  ])('validates %j → fields.%s', async (patch, field, message) => {
    const res = await call('POST', base(), owner.idToken, { ...body('valid-name'), ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toContain(message);
    expect(await rowOf('valid-name')).toBeUndefined();
  });

  it('reads one cluster; 404 for an unknown one', async () => {
    const res = await call('GET', `${base()}/main`, members.read.idToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: 'main', name: 'main', apiToken: SENSITIVE_PLACEHOLDER });
    const missing = await call('GET', `${base()}/nope`, owner.idToken);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(clusterMessages.notFound);
  });

  it('updates: the token sent as the placeholder, empty or not at all keeps the stored one (verified again); the name stays', async () => {
    const update = (apiToken?: string) => ({ endpoint: k.url, caCertificate: k.caPem, ...(apiToken === undefined ? {} : { apiToken }) });
    for (const apiToken of [SENSITIVE_PLACEHOLDER, '', undefined]) {
      const res = await call('PUT', `${base()}/main`, owner.idToken, update(apiToken));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: 'main', apiToken: SENSITIVE_PLACEHOLDER });
    }
    expect(t.app.services.secrets.open((await rowOf('main'))!.tokenSealed)).toBe(k.adminToken);
    const renamed = await call('PUT', `${base()}/main`, owner.idToken, { ...update(), name: 'renamed' });
    expect(renamed.json().name).toBe('main');
    // the CA left out is kept; '' removes it (and then the stand-in's certificate is not trusted: 400, nothing saved)
    const keptCa = await call('PUT', `${base()}/main`, owner.idToken, { endpoint: k.url });
    expect(keptCa.json().caCertificate).toBe(k.caPem.trim());
    const noCa = await call('PUT', `${base()}/main`, owner.idToken, { endpoint: k.url, caCertificate: '' });
    expect(noCa.json()).toMatchObject({ code: 'ClusterUnreachable', fields: { caCertificate: [noCa.json().message] } });
    expect((await rowOf('main'))!.caCertificate).toBe(k.caPem.trim());
    const refused = await call('PUT', `${base()}/main`, owner.idToken, update('wrong-token'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'ClusterRefused', fields: { apiToken: [refused.json().message] } });
    expect(t.app.services.secrets.open((await rowOf('main'))!.tokenSealed)).toBe(k.adminToken);
    // a new valid token replaces the stored one
    const other = k.addToken('other-admin');
    expect((await call('PUT', `${base()}/main`, owner.idToken, update(other))).statusCode).toBe(200);
    expect(t.app.services.secrets.open((await rowOf('main'))!.tokenSealed)).toBe(other);
  });

  it('sends a kept token only to the endpoint it was given for: a new endpoint needs the token again', async () => {
    // the relay forwards to the same stand-in: a server the token was never given for, which would accept it
    const seen = relaySockets.size;
    for (const apiToken of [SENSITIVE_PLACEHOLDER, '', undefined]) {
      const moved = await call('PUT', `${base()}/main`, members.write.idToken, {
        endpoint: relayUrl,
        caCertificate: k.caPem,
        ...(apiToken === undefined ? {} : { apiToken }),
      });
      expect(moved.statusCode).toBe(400);
      expect(moved.json()).toMatchObject({ message: clusterMessages.tokenForNewEndpoint, fields: { apiToken: [clusterMessages.tokenForNewEndpoint] } });
    }
    expect(relaySockets.size, 'connections to the new endpoint').toBe(seen);
    expect((await rowOf('main'))!.endpoint).toBe(k.url);
    // with the token given again it moves, and back
    const given = await call('PUT', `${base()}/main`, members.write.idToken, { endpoint: relayUrl, caCertificate: k.caPem, apiToken: k.adminToken });
    expect(given.statusCode).toBe(200);
    expect(given.json().endpoint).toBe(relayUrl);
    expect((await call('PUT', `${base()}/main`, owner.idToken, { endpoint: k.url, caCertificate: k.caPem, apiToken: k.adminToken })).statusCode).toBe(200);
  });

  it('removes a cluster', async () => {
    expect((await call('POST', base(), owner.idToken, body('doomed'))).statusCode).toBe(201);
    const res = await call('DELETE', `${base()}/doomed`, members.write.idToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await call('DELETE', `${base()}/doomed`, owner.idToken)).statusCode).toBe(404);
    expect(await rowOf('doomed')).toBeUndefined();
  });
});

describe('verification on create', () => {
  it('refuses a token the cluster does not know (401 from /version), saving nothing', async () => {
    const res = await call('POST', base(), owner.idToken, body('bad-token', { apiToken: 'not-a-token' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ClusterRefused', message: clusterMessages.refused('the token is not valid (401 Unauthorized)') });
    expect(res.json().fields.apiToken).toEqual([res.json().message]);
    expect((await call('GET', `${base()}/bad-token`, owner.idToken)).statusCode).toBe(404);
  });

  it('calls a closed port unreachable, and a server whose certificate it cannot trust unreachable on the CA field', async () => {
    const port = await closedPort();
    const closed = await call('POST', base(), owner.idToken, body('closed', { endpoint: `https://127.0.0.1:${port}` }));
    expect(closed.statusCode).toBe(400);
    expect(closed.json()).toMatchObject({ code: 'ClusterUnreachable', message: clusterMessages.unreachable(`connection refused by 127.0.0.1:${port}`) });
    expect(closed.json().fields.endpoint).toEqual([closed.json().message]);
    const noCa = await call('POST', base(), owner.idToken, body('no-ca', { caCertificate: null }));
    expect(noCa.statusCode).toBe(400);
    expect(noCa.json()).toMatchObject({ code: 'ClusterUnreachable', message: expect.stringContaining('TLS certificate is not trusted') });
    expect(noCa.json().fields.caCertificate).toEqual([noCa.json().message]);
    expect(await rowOf('closed')).toBeUndefined();
    expect(await rowOf('no-ca')).toBeUndefined();
  });

  it("refuses a token without the rights Gantry needs with the access review's answer (cluster-wide, then in the namespace)", async () => {
    const viewer = k.addToken('viewer', [{ verbs: ['get', 'list'], resources: ['*'], apiGroups: ['*'], namespaces: ['team-a'] }]);
    const wide = await call('POST', base(), owner.idToken, body('viewer', { apiToken: viewer }));
    expect(wide.statusCode).toBe(400);
    expect(wide.json()).toMatchObject({
      code: 'ClusterRefused',
      message: clusterMessages.refused('it may not list pods cluster-wide'),
      fields: { apiToken: [clusterMessages.refused('it may not list pods cluster-wide')] },
    });
    const inNs = await call('POST', base(), owner.idToken, body('viewer', { apiToken: viewer, associatedNamespace: 'team-a' }));
    expect(inNs.statusCode).toBe(400);
    expect(inNs.json().message).toBe(clusterMessages.refused('it may not create deployments.apps in namespace team-a'));
    expect(await rowOf('viewer')).toBeUndefined();
    // the same rights cluster-wide are not enough either when no namespace is associated
    const team = teamToken();
    expect((await call('POST', base(), owner.idToken, body('team', { apiToken: team }))).json().message).toBe(
      clusterMessages.refused('it may not list pods cluster-wide'),
    );
    expect((await call('POST', base(), owner.idToken, body('team', { apiToken: team, associatedNamespace: 'team-a' }))).statusCode).toBe(201);
  });
});

describe('cluster status', () => {
  const kc = () => {
    const c = new k8s.KubeConfig();
    c.loadFromString(k.kubeconfig());
    return c;
  };
  const deployment = (name: string, namespace: string, replicas: number): k8s.V1Deployment => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image: `${name}:1`, resources: { requests: { cpu: '100m' } } }] } },
    },
  });
  const status = async (name: string, token = owner.idToken) => {
    const res = await call('GET', `${base()}/${name}/status`, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    const apps = kc().makeApiClient(k8s.AppsV1Api);
    await apps.createNamespacedDeployment({ namespace: 'default', body: deployment('api', 'default', 3) });
    await apps.createNamespacedDeployment({ namespace: 'team-a', body: deployment('worker', 'team-a', 1) });
    await k.settle();
  });

  it('counts what the cluster holds: nodes, pods by phase, deployments, version; a crash-looping pod counts as failed', async () => {
    const s0 = await status('main', members.read.idToken);
    expect(s0).toEqual({
      name: 'main',
      endpoint: k.url,
      associatedNamespace: null,
      podStatus: { runningPods: 4, succeededPods: 0, failedPods: 0, pendingPods: 0, totalPods: 4 },
      nodesStatus: { totalNodes: 3, readyNodes: 3, utilization: { averageCpuUtilization: expect.any(Number), averageMemoryUtilization: expect.any(Number) } },
      deploymentsStatus: { total: 2, available: 2 },
      kubernetesVersion: 'v1.30.0-gantry-standin',
      microservicesStatus: [],
    });
    expect(s0.podStatus.totalPods).toBe(k.list('pods').length);

    const [first, second] = k.list('pods', 'default');
    k.failPod('default', first!.metadata.name); // CrashLoopBackOff: phase stays Running
    await k.settle();
    expect(k.get('pods', 'default', first!.metadata.name)!.status.phase).toBe('Running');
    const s1 = await status('main');
    expect(s1.podStatus).toEqual({ runningPods: 3, succeededPods: 0, failedPods: 1, pendingPods: 0, totalPods: 4 });
    expect(s1.deploymentsStatus).toEqual({ total: 2, available: 1 });

    k.failPod('default', second!.metadata.name, { crashLoop: false }); // phase Failed; its ReplicaSet starts a replacement
    await k.settle();
    const s2 = await status('main');
    expect(s2.podStatus).toEqual({ runningPods: 3, succeededPods: 0, failedPods: 2, pendingPods: 0, totalPods: 5 });
    expect(s2.podStatus.totalPods).toBe(k.list('pods').length);

    k.setNodeReady('standin-node-3', false);
    expect((await status('main')).nodesStatus).toMatchObject({ totalNodes: 3, readyNodes: 2 });
    k.setNodeReady('standin-node-3', true);
  });

  it('averages CPU and memory utilization over the nodes as % of allocatable; null when the metrics API is off', async () => {
    const fractions = [0.25, 0.5, 0.75];
    k.list('nodes').forEach((n, i) => {
      const a = n.status.allocatable;
      k.setNodeMetrics(n.metadata.name, {
        cpu: `${Math.round(parseQuantity(a.cpu) * 1000 * fractions[i]!)}m`,
        memory: `${Math.round((parseQuantity(a.memory) / 1024) * fractions[i]!)}Ki`,
      });
    });
    const on = await status('main');
    expect(on.nodesStatus.utilization.averageCpuUtilization).toBeCloseTo(50, 1);
    expect(on.nodesStatus.utilization.averageMemoryUtilization).toBeCloseTo(50, 1);
    k.setMetricsEnabled(false);
    try {
      const off = await status('main');
      expect(off.nodesStatus).toEqual({ totalNodes: 3, readyNodes: 3, utilization: null });
      expect(off.podStatus.totalPods).toBe(k.list('pods').length);
    } finally {
      k.setMetricsEnabled(true);
    }
  });

  it('keeps to the associated namespace (pods and deployments there only)', async () => {
    const s = await status('team');
    expect(s.associatedNamespace).toBe('team-a');
    expect(s.podStatus).toEqual({ runningPods: 1, succeededPods: 0, failedPods: 0, pendingPods: 0, totalPods: 1 });
    expect(s.deploymentsStatus).toEqual({ total: 1, available: 1 });
    // a token bound to team-a may not list nodes: no node figures rather than an error
    expect(s.nodesStatus).toEqual({ totalNodes: 0, readyNodes: 0, utilization: null });
  });

  it('answers 402 when the plan lacks the Kubernetes dashboard, 502 with the reason when the cluster refuses', async () => {
    await expectPlanGated(t, 'kubernetesDashboard', [{ method: 'GET', url: `/ms-kube${base()}/main/status` }], owner.idToken);
    const revoked = k.addToken('short-lived');
    expect((await call('PUT', `${base()}/main`, owner.idToken, { endpoint: k.url, caCertificate: k.caPem, apiToken: revoked })).statusCode).toBe(200);
    k.revokeToken(revoked);
    const res = await call('GET', `${base()}/main/status`, owner.idToken);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'ClusterRefused', message: clusterMessages.refused('the token is not valid (401 Unauthorized)') });
    expect((await call('PUT', `${base()}/main`, owner.idToken, { endpoint: k.url, caCertificate: k.caPem, apiToken: k.adminToken })).statusCode).toBe(200);
  });
});

describe('the Kubernetes dashboard trial', () => {
  it('gives the free plan 30 days from the project start, then 402 (other calls go on); a paid plan has no end', async () => {
    const trial = await createProject(t, owner.idToken, 'Trial');
    expect((await call('POST', base(trial), owner.idToken, body('t1'))).statusCode).toBe(201);
    const daysOn = (n: number) => () => new Date(Date.now() + n * 86_400_000);
    try {
      clock = daysOn(KUBERNETES_TRIAL_DAYS - 1);
      expect((await call('GET', `${base(trial)}/t1/status`, members.read.idToken)).statusCode).toBe(404);
      expect((await call('GET', `${base(trial)}/t1/status`, owner.idToken)).statusCode).toBe(200);
      clock = daysOn(KUBERNETES_TRIAL_DAYS);
      const expired = await call('GET', `${base(trial)}/t1/status`, owner.idToken);
      expect(expired.statusCode).toBe(402);
      expect(expired.json()).toMatchObject({ code: 'PlanLimit', message: clusterMessages.trialExpired });
      expect((await call('GET', `${base(trial)}/t1/namespaces`, owner.idToken)).statusCode).toBe(200);
      expect((await call('GET', `${base(trial)}/t1`, owner.idToken)).statusCode).toBe(200);
      await t.app.services.billing.setPlan(trial, PRO_PLAN_ID);
      expect((await call('GET', `${base(trial)}/t1/status`, owner.idToken)).statusCode).toBe(200);
    } finally {
      clock = () => new Date();
    }
  });
});

describe('namespaces', () => {
  it("lists the cluster's namespaces, or only the associated one", async () => {
    const all = await call('GET', `${base()}/main/namespaces`, members.read.idToken);
    expect(all.statusCode).toBe(200);
    expect(all.json().namespaces.map((n: { metadata: { name: string } }) => n.metadata.name)).toEqual([
      'default',
      'kube-system',
      'kube-public',
      'kube-node-lease',
      'team-a',
    ]);
    const one = await call('GET', `${base()}/team/namespaces`, members.read.idToken);
    expect(one.json()).toEqual({ namespaces: [{ metadata: { name: 'team-a' } }] });
  });
});

describe('the detailed list', () => {
  it("answers every cluster's status, and a reason for one that is down or does not answer in time, without waiting on it", async () => {
    expect(
      (await call('POST', base(), owner.idToken, body('gone', { endpoint: gone.url, apiToken: gone.adminToken, caCertificate: gone.caPem }))).statusCode,
    ).toBe(201);
    expect((await call('POST', base(), owner.idToken, body('slow', { endpoint: relayUrl }))).statusCode).toBe(201);
    const goneHost = new URL(gone.url).host;
    await gone.close();
    relayHolds = true;
    try {
      const res = await call('GET', `${base()}?detailed=true`, members.read.idToken);
      expect(res.statusCode).toBe(200);
      const byName = Object.fromEntries(res.json().kuberneteses.map((c: { name: string }) => [c.name, c]));
      expect(Object.keys(byName)).toEqual(['gone', 'main', 'slow', 'team']);
      expect(byName.main).toMatchObject({ apiToken: SENSITIVE_PLACEHOLDER, unreachableReason: null, status: { name: 'main', nodesStatus: { totalNodes: 3 } } });
      expect(byName.team).toMatchObject({ unreachableReason: null, status: { associatedNamespace: 'team-a' } });
      expect(byName.gone).toMatchObject({ status: null, unreachableReason: clusterMessages.unreachable(`connection refused by ${goneHost}`) });
      expect(byName.slow).toMatchObject({
        status: null,
        unreachableReason: clusterMessages.unreachable(`no answer from ${new URL(relayUrl).host} within 4 s`),
      });
    } finally {
      relayHolds = false;
    }
    const plain = await call('GET', `${base()}?detailed=false`, owner.idToken);
    expect(plain.json().kuberneteses.every((c: object) => !('status' in c))).toBe(true);
    expect((await call('GET', `${base()}?detailed=yes`, owner.idToken)).statusCode).toBe(400);
  });
});

describe('access', () => {
  it('refuses read members changes (403), other projects (404) and no session (401)', async () => {
    const routes = [
      { method: 'GET', url: base() },
      { method: 'POST', url: base(), payload: body('x'), change: true },
      { method: 'GET', url: `${base()}/main` },
      { method: 'PUT', url: `${base()}/main`, payload: { endpoint: k.url }, change: true },
      { method: 'DELETE', url: `${base()}/main`, change: true },
      { method: 'GET', url: `${base()}/main/status` },
      { method: 'GET', url: `${base()}/main/namespaces` },
    ].map((r) => ({ ...r, url: `/ms-kube${r.url}` }) as GuardedRoute);
    await expectEveryProjectRouteListed(t, ['kubernetes clusters'], routes);
    await expectProjectGuards(t, routes, { reader: members.read.idToken, outsider: outsider.idToken });
    // the outsider's own cluster named main is not reachable from this project's owner
    expect((await call('GET', `${base(otherProjectId)}/main`, owner.idToken)).statusCode).toBe(404);
    expect(await rowOf('main', otherProjectId)).toBeDefined();
  });

  it('is in the OpenAPI document', async () => {
    await expectDocumented(t, [
      '/ms-kube/projects/{projectId}/kubernetes',
      '/ms-kube/projects/{projectId}/kubernetes/{clusterId}',
      '/ms-kube/projects/{projectId}/kubernetes/{clusterId}/status',
      '/ms-kube/projects/{projectId}/kubernetes/{clusterId}/namespaces',
    ]);
  });
});

describe('the clusters port', () => {
  it("opens the connection of the project's cluster, never another project's", async () => {
    const port: ClustersPort = t.app.services.clusters;
    expect(await port.connectionFor(projectId, 'team')).toEqual({
      clusterId: 'team',
      endpoint: k.url,
      token: expect.stringMatching(/^standin-/),
      caCertificate: k.caPem.trim(),
      associatedNamespace: 'team-a',
    });
    await expect(port.connectionFor(projectId, 'nope')).rejects.toMatchObject({ status: 404 });
    const fresh = await createProject(t, owner.idToken, 'Empty');
    await expect(port.connectionFor(fresh, 'main')).rejects.toMatchObject({ status: 404 });
  });
});
