import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import { io as connectSocket } from 'socket.io-client';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { AUTOSCALING_CONFIG_KEYS, SCALING_DEFAULTS, SENSITIVE_PLACEHOLDER, deployMessages, serviceMessages } from '@gantry/contracts';
import { startKubeStandin, type KubeStandin } from '@gantry/test-support';
import { createTestApp, registerUser, bearer, createProject, addMember, until, endMembersAccess } from '../../../test/helpers.js';
import { expectEveryProjectRouteListed, expectPlanGated, expectProjectGuards, type GuardedRoute } from '../../../test/route-guards.js';
import { AppError } from '../../platform/errors.js';
import type { ServicesPort } from './services.port.js';
import { LOG_STREAM_ACCESS_ENDED } from './services.routes.js';
import { PULL_RENEWAL_QUEUE, RENEW_EVERY_MS, type PullRenewalJob } from './services.pull-renewal.js';
import { serviceKubeConnector, type ServiceKubeConnector } from './services.kube.js';

/**
 * Routes of the services module, per route (success, validation, read → 403, other project → 404, 402 where the plan
 * gates), against the Kubernetes stand-in through the real adapter; registries are a stand-in port (ECR-like
 * credentials, one registry that is temporarily unavailable).
 */

let t: Awaited<ReturnType<typeof createTestApp>>;
let k: KubeStandin;
let owner: { idToken: string; profile: { id: string } };
let outsider: { idToken: string };
let projectId: string;
let otherProjectId: string;
const members: Record<'write' | 'read', { idToken: string }> = {} as never;
let ecrToken = 'ecr-token-1';
/** How often the services module listed Gantry's Deployments and pods on a cluster itself. */
const listings = { pods: 0, deployments: 0 };
const countingConnector: ServiceKubeConnector = (target, o) => {
  const kube = serviceKubeConnector('any')(target, o);
  return {
    ...kube,
    pods: (...a) => (listings.pods++, kube.pods(...a)),
    managedDeployments: (...a) => (listings.deployments++, kube.managedDeployments(...a)),
  };
};
/** The services module's clock (when pull secret renewals are due). */
let clock = () => new Date();

const registries = {
  async pushTarget(_projectId: string, registryName?: string | null) {
    return {
      registryName: registryName ?? 'ecr',
      provider: 'Ecr' as const,
      host: '123456789012.dkr.ecr.eu-west-1.amazonaws.com',
      repositoryPrefix: '',
      username: 'AWS',
      password: ecrToken,
      tls: true,
    };
  },
  async versions(_projectId: string, registryName: string, q: { repository: string; offset: number; limit: number }) {
    if (registryName === 'down') throw new AppError(503, 'The registry is unavailable, please retry: timeout', 'RegistryUnavailable');
    const all = ['latest', ...Array.from({ length: 12 }, (_, i) => `v${12 - i}`)].map((name, i) => ({
      name,
      date: new Date(Date.UTC(2026, 0, 30 - i)).toISOString(),
      digest: null,
      commit: null,
    }));
    return { tags: all.slice(q.offset, q.offset + q.limit), lastElementCursor: q.offset + q.limit < all.length ? q.offset + q.limit : -1 };
  },
  /** v10 was pushed by a build (its labels name the commit); the others carry none. */
  async commitOf(_projectId: string, _registryName: string, q: { repository: string; tag: string }) {
    if (q.tag !== 'v10') return null;
    return { sha: V10_COMMIT, message: 'Ship v10', name: V10_COMMIT.slice(0, 7), user: { name: 'Ada', avatar: '' } };
  },
};
const V10_COMMIT = 'c0ffee4242424242424242424242424242424242';

beforeAll(async () => {
  k = await startKubeStandin({ nodes: 2, metrics: true, tickMs: 30, namespaces: ['team-a', 'team-b'] });
  t = await createTestApp(
    { OUTBOUND_NETWORK: 'any' },
    { overrides: { services: { registries, connect: countingConnector, timeoutMs: 3000, now: () => clock() } } },
  );
  owner = (await registerUser(t, 'owner@example.com')) as never;
  outsider = await registerUser(t, 'outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Alpha');
  otherProjectId = await createProject(t, outsider.idToken, 'Theirs');
  for (const p of ['write', 'read'] as const) members[p] = await addMember(t, owner.idToken, projectId, `${p}@example.com`, p);
  const connect = await call('POST', `/projects/${projectId}/kubernetes`, owner.idToken, {
    name: 'main',
    endpoint: k.url,
    apiToken: k.adminToken,
    caCertificate: k.caPem,
    type: 'personal',
  });
  expect(connect.statusCode).toBe(201);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await k?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, idToken?: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-kube${url}`, headers: idToken ? bearer(idToken) : {}, payload });
const svcBase = (p = projectId) => `/projects/${p}/microservices`;
const inNs = (name: string, ns = 'team-a', p = projectId, cluster = 'main') => `/projects/${p}/kubernetes/${cluster}/namespaces/${ns}/microservices/${name}`;
const service = (name: string, o: Record<string, unknown> = {}) => ({
  name,
  description: `The ${name} service`,
  registry: 'ecr',
  imageRepository: 'shop/web',
  readme: '# web',
  schema: {
    inputs: [
      { name: 'DB_PASSWORD', description: 'database password', required: true, sensitive: true },
      { name: 'LOG_LEVEL', default: 'info' },
    ],
    outputs: [{ name: 'http', description: 'port 8080' }],
    port: 8080,
  },
  ...o,
});
const deployBody = (version: string, o: Record<string, unknown> = {}) => ({
  version,
  deployment: {
    configurations: [
      { key: 'DB_PASSWORD', value: 'hunter2' },
      { key: 'FEATURE_X', value: 'on' },
    ],
  },
  autoScaling: { ...SCALING_DEFAULTS, minReplicas: 2, maxReplicas: 5 },
  ...o,
});

describe('microservices CRUD', () => {
  it('creates (write may), lists private with the public catalogue, reads one; 409 on a used or public name', async () => {
    const res = await call('POST', svcBase(), members.write.idToken, service('web'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'web', kind: 'PRIVATE', isPublic: false, registry: 'ecr', schema: { port: 8080 } });
    expect((await call('POST', svcBase(), owner.idToken, service('web'))).json().message).toBe(serviceMessages.exists('web'));
    expect((await call('POST', svcBase(), owner.idToken, service('nginx'))).statusCode).toBe(409);
    const list = (await call('GET', svcBase(), members.read.idToken)).json().microservices as { name: string; kind: string }[];
    expect(list.filter((s) => s.kind === 'PRIVATE').map((s) => s.name)).toEqual(['web']);
    expect(list.filter((s) => s.kind === 'PUBLIC').map((s) => s.name)).toEqual(expect.arrayContaining(['nginx', 'redis', 'postgres']));
    expect((await call('GET', `${svcBase()}?kind=PUBLIC`, owner.idToken)).json().microservices.every((s: { isPublic: boolean }) => s.isPublic)).toBe(true);
    expect((await call('GET', `${svcBase()}/web`, members.read.idToken)).json()).toMatchObject({ name: 'web', readme: '# web' });
    expect((await call('GET', `${svcBase()}/postgres`, members.read.idToken)).json()).toMatchObject({ kind: 'PUBLIC', registry: null });
  });

  it("refuses a name that would clash in Kubernetes ('.' and '~' become '-') with a clear message at create", async () => {
    expect((await call('POST', svcBase(), owner.idToken, service('api-v1'))).statusCode).toBe(201);
    for (const name of ['api.v1', 'api~v1']) {
      const res = await call('POST', svcBase(), owner.idToken, service(name));
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(serviceMessages.kubeNameClash(name, 'api-v1', 'api-v1'));
      expect(res.json().fields.name).toEqual([serviceMessages.kubeNameClash(name, 'api-v1', 'api-v1')]);
    }
    // a public service's Kubernetes name is taken too; another project may use the name
    expect((await call('POST', svcBase(), owner.idToken, service('redis~'))).json().message).toBe(serviceMessages.kubeNameClash('redis~', 'redis', 'redis'));
    expect((await call('POST', svcBase(otherProjectId), outsider.idToken, service('api.v1'))).statusCode).toBe(201);
    expect((await call('DELETE', `${svcBase()}/api-v1`, owner.idToken)).statusCode).toBe(200);
    expect((await call('POST', svcBase(), owner.idToken, service('api.v1'))).statusCode).toBe(201);
    expect((await call('DELETE', `${svcBase()}/api.v1`, owner.idToken)).statusCode).toBe(200);
  });

  it('validates the form (spec §5), with the field messages', async () => {
    const res = await call('POST', svcBase(), owner.idToken, service('X', { description: '', imageRepository: '' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({
      name: [serviceMessages.nameRule],
      description: [serviceMessages.descriptionRequired],
      imageRepository: [serviceMessages.imageRepositoryRequired],
    });
    const pub = await call('POST', svcBase(), owner.idToken, service('site', { registry: 'Public Docker Image', imageRepository: 'nginx', schema: undefined }));
    expect(pub.statusCode).toBe(201);
    expect(pub.json()).toMatchObject({ registry: null, imageRepository: 'nginx' });
  });

  it('updates and deletes private services only; read → 403, other project → 404', async () => {
    const upd = await call('PUT', `${svcBase()}/site`, members.write.idToken, { description: 'Our site', registry: null, imageRepository: 'nginx' });
    expect(upd.statusCode).toBe(200);
    expect(upd.json().description).toBe('Our site');
    expect((await call('PUT', `${svcBase()}/nginx`, owner.idToken, { description: 'x', registry: null, imageRepository: 'nginx' })).statusCode).toBe(403);
    expect((await call('DELETE', `${svcBase()}/redis`, owner.idToken)).statusCode).toBe(403);
    expect((await call('POST', svcBase(), members.read.idToken, service('nope'))).statusCode).toBe(403);
    expect((await call('PUT', `${svcBase()}/site`, members.read.idToken, { description: 'x', registry: null, imageRepository: 'nginx' })).statusCode).toBe(403);
    expect((await call('DELETE', `${svcBase()}/site`, members.read.idToken)).statusCode).toBe(403);
    expect((await call('GET', `${svcBase()}/web`, outsider.idToken)).statusCode).toBe(404);
    expect((await call('GET', `${svcBase(otherProjectId)}/web`, outsider.idToken)).statusCode).toBe(404);
    expect((await call('POST', svcBase(), owner.idToken, service('gone'))).statusCode).toBe(201);
    expect((await call('DELETE', `${svcBase()}/gone`, members.write.idToken)).statusCode).toBe(200);
    expect((await call('GET', `${svcBase()}/gone`, owner.idToken)).statusCode).toBe(404);
  });

  it('pages versions (offset/limit 10, latest first, -1 at the end) and answers 503 while the registry is unavailable', async () => {
    const first = (await call('GET', `${svcBase()}/web/versions`, members.read.idToken)).json();
    expect(first.tags).toHaveLength(10);
    expect(first.tags[0].name).toBe('latest');
    expect(first.lastElementCursor).toBe(10);
    const next = (await call('GET', `${svcBase()}/web/versions?offset=10&limit=10`, members.read.idToken)).json();
    expect(next.tags.map((x: { name: string }) => x.name)).toEqual(['v3', 'v2', 'v1']);
    expect(next.lastElementCursor).toBe(-1);
    expect((await call('GET', `${svcBase()}/redis/versions`, owner.idToken)).json().tags[0]).toMatchObject({ name: 'latest' });
    expect((await call('POST', svcBase(), owner.idToken, service('flaky', { registry: 'down' }))).statusCode).toBe(201);
    expect((await call('GET', `${svcBase()}/flaky/versions`, owner.idToken)).statusCode).toBe(503);
    expect((await call('GET', `${svcBase()}/web/versions?limit=0`, owner.idToken)).statusCode).toBe(400);
    expect((await call('GET', `${svcBase()}/web/versions`, outsider.idToken)).statusCode).toBe(404);
  });
});

describe('access', () => {
  it('refuses read members changes (403), other projects (404) and no session (401) on every route', async () => {
    const routes: GuardedRoute[] = [
      { method: 'GET', url: svcBase() },
      { method: 'POST', url: svcBase(), payload: service('guarded'), change: true },
      { method: 'GET', url: `${svcBase()}/web` },
      { method: 'PUT', url: `${svcBase()}/web`, payload: { description: 'x', registry: null, imageRepository: 'nginx' }, change: true },
      { method: 'DELETE', url: `${svcBase()}/web`, change: true },
      { method: 'GET', url: `${svcBase()}/web/versions` },
      { method: 'GET', url: `${svcBase()}/web/history` },
      { method: 'GET', url: `/projects/${projectId}/kubernetes/main/microservices` },
      { method: 'GET', url: `/projects/${projectId}/kubernetes/main/microservices-status` },
      { method: 'POST', url: `${inNs('web')}/deploy`, payload: deployBody('v12'), change: true },
      { method: 'DELETE', url: inNs('web'), change: true },
      { method: 'GET', url: `${inNs('web')}/status` },
      { method: 'GET', url: `${inNs('web')}/pods` },
      { method: 'GET', url: `${inNs('web')}/events` },
      { method: 'GET', url: `${inNs('web')}/logs?pod=x&tail=5` },
      { method: 'GET', url: `${inNs('web')}/spec` },
    ];
    const prefixed = routes.map((r) => ({ ...r, url: `/ms-kube${r.url}` }));
    const stream: GuardedRoute = { method: 'GET', url: `/ms-kube${inNs('web')}/logs/stream?pod=x` };
    await expectEveryProjectRouteListed(t, ['kubernetes services'], [...prefixed, stream]);
    await expectProjectGuards(t, [...prefixed, stream], { reader: members.read.idToken, outsider: outsider.idToken });
  });
});

describe('deploy to the stand-in cluster', () => {
  it('refuses a deploy that breaks the dialog rules or misses a required input; read → 403; other project → 404', async () => {
    const bad = await call(
      'POST',
      `${inNs('web')}/deploy`,
      owner.idToken,
      deployBody('', { autoScaling: { ...SCALING_DEFAULTS, memory: 50, minReplicas: 4, maxReplicas: 3 } }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({
      version: [deployMessages.versionRequired],
      'autoScaling.memory': [deployMessages.memoryMin],
      'autoScaling.minReplicas': [deployMessages.minPodsAboveMax],
    });
    const missing = await call('POST', `${inNs('web')}/deploy`, owner.idToken, deployBody('v12', { deployment: { configurations: [] } }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ 'inputs.DB_PASSWORD': [deployMessages.inputRequired('DB_PASSWORD')] });
    expect((await call('POST', `${inNs('web')}/deploy`, members.read.idToken, deployBody('v12'))).statusCode).toBe(403);
    expect((await call('POST', `${inNs('web', 'team-a', otherProjectId)}/deploy`, outsider.idToken, deployBody('v12'))).statusCode).toBe(404);
    expect((await call('POST', `${inNs('web', 'team-a', projectId, 'nocluster')}/deploy`, owner.idToken, deployBody('v12'))).statusCode).toBe(404);
    expect(k.list('deployments', 'team-a')).toHaveLength(0);
  });

  it('deploys: Deployment, Service, HPA, pull secret and inputs secret by server-side apply; pods run; status, pods, logs, events, spec', async () => {
    const res = await call('POST', `${inNs('web')}/deploy`, members.write.idToken, deployBody('v12'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ done: true, historyId: expect.any(String) });
    // the project's subscribed members hear of it (the SERVICE notification opens the service)
    const [note] = (await t.app.inject({ method: 'GET', url: '/ms-notification/notifications', headers: bearer(members.read.idToken) })).json().notifications;
    expect(note).toMatchObject({ message: 'Service web (v12) deployed', entityType: 'SERVICE', itemId: 'web', author: 'Mem Ber' });

    const d = k.get('deployments', 'team-a', 'web')!;
    expect(d.spec.replicas).toBe(2);
    const c = d.spec.template.spec.containers[0];
    expect(c.image).toBe('123456789012.dkr.ecr.eu-west-1.amazonaws.com/shop/web:v12');
    expect(c.resources).toEqual({ requests: { cpu: '10m', memory: '100Mi' }, limits: { cpu: '1000m', memory: '5000Mi' } });
    expect(d.metadata.managedFields.some((f: { manager: string; operation: string }) => f.manager === 'gantry' && f.operation === 'Apply')).toBe(true);
    expect(k.get('services', 'team-a', 'web')!.spec.ports[0]).toMatchObject({ port: 8080, targetPort: 8080 });
    expect(k.get('horizontalpodautoscalers', 'team-a', 'web')!.spec).toMatchObject({ minReplicas: 2, maxReplicas: 5 });
    const pull = k.get('secrets', 'team-a', 'web-registry')!;
    expect(pull.type).toBe('kubernetes.io/dockerconfigjson');
    expect(Buffer.from(pull.data['.dockerconfigjson'], 'base64').toString()).toContain('ecr-token-1');
    expect(Buffer.from(k.get('secrets', 'team-a', 'web-inputs')!.data.DB_PASSWORD, 'base64').toString()).toBe('hunter2');

    const pods = await until(
      async () => (await call('GET', `${inNs('web')}/pods`, members.read.idToken)).json().pods as { metadata: { name: string }; status: { phase: string } }[],
      (p) => p.length === 2 && p.every((x) => x.status.phase === 'Running'),
      'two running pods',
    );
    const status = (await call('GET', `${inNs('web')}/status`, members.read.idToken)).json();
    expect(status).toMatchObject({ deployed: true, version: 'v12', replicas: { desired: 2 }, autoScaling: { minReplicas: 2, maxReplicas: 5 } });
    expect(status.usage).toEqual({ averageCpu: expect.any(Number), averageMemory: expect.any(Number) });
    expect(status.configurations).toEqual(
      expect.arrayContaining([
        { key: 'DB_PASSWORD', value: SENSITIVE_PLACEHOLDER },
        { key: 'FEATURE_X', value: 'on' },
        { key: 'LOG_LEVEL', value: 'info' },
        { key: AUTOSCALING_CONFIG_KEYS.minReplicas, value: '2' },
      ]),
    );
    expect(JSON.stringify(status)).not.toContain('hunter2');

    const pod = pods[0]!.metadata.name;
    k.addLogLine('team-a', pod, 'GET / 200');
    const logs = (await call('GET', `${inNs('web')}/logs?pod=${pod}&tail=50`, members.read.idToken)).json();
    expect(logs.logs).toContain('starting web from image');
    expect(logs.logs).toContain('GET / 200');
    expect((await call('GET', `${inNs('web')}/logs?pod=kube-proxy&tail=5`, owner.idToken)).statusCode).toBe(404);
    const events = (await call('GET', `${inNs('web')}/events`, members.read.idToken)).json().events as { reason: string; object: string }[];
    expect(events.map((e) => e.reason)).toEqual(expect.arrayContaining(['Started', 'ScalingReplicaSet']));
    const spec = (await call('GET', `${inNs('web')}/spec`, members.read.idToken)).json();
    expect(spec.objects.map((o: { kind: string }) => o.kind)).toEqual(['Deployment', 'Service', 'HorizontalPodAutoscaler']);
    expect(JSON.stringify(spec)).not.toContain('managedFields');
  });

  /** A pod's log followed over HTTP by `idToken`: what it got so far, and whether the server ended it. */
  async function followLog(idToken: string, pod: string) {
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const stream = {
      got: '',
      ended: false,
      req: http.get(`http://127.0.0.1:${port}/ms-kube${inNs('web')}/logs/stream?pod=${pod}&tail=1`, { headers: bearer(idToken) }),
    };
    const res = await new Promise<http.IncomingMessage>((resolve) => stream.req.on('response', resolve));
    expect(res.headers['content-type']).toBe('text/event-stream');
    res.on('data', (c: Buffer) => (stream.got += c.toString()));
    res.on('end', () => (stream.ended = true));
    await until(
      async () => stream.got,
      (g) => g.includes('data: '),
      'the tail line',
    );
    return stream;
  }

  it('follows a pod log live (SSE) until the client leaves', async () => {
    const pod = (await call('GET', `${inNs('web')}/pods`, owner.idToken)).json().pods[0].metadata.name as string;
    const stream = await followLog(owner.idToken, pod);
    k.addLogLine('team-a', pod, 'live line 1');
    await until(
      async () => stream.got,
      (g) => g.includes('live line 1'),
      'a live line',
    );
    stream.req.destroy();
  });

  it('ends a followed log when its user is removed from the project, logs out or sets a new password', async () => {
    const pod = (await call('GET', `${inNs('web')}/pods`, owner.idToken)).json().pods[0].metadata.name as string;
    const staying = await followLog(owner.idToken, pod);
    const { opened: streams } = await endMembersAccess(t, owner.idToken, projectId, 'log', async (m) => ({
      removed: await followLog(m.removed.idToken, pod),
      leaving: await followLog(m.leaving.idToken, pod),
      changing: await followLog(m.changing.idToken, pod),
    }));
    for (const [who, stream] of Object.entries(streams)) {
      await until(
        async () => stream.ended,
        (ended) => ended,
        `${who}'s stream ended`,
      );
      expect(stream.got).toContain(`event: error\ndata: ${JSON.stringify({ message: LOG_STREAM_ACCESS_ENDED })}\n\nevent: end\n`);
    }
    k.addLogLine('team-a', pod, 'after the changes');
    await until(
      async () => staying.got,
      (g) => g.includes('after the changes'),
      "the owner's live line",
    );
    expect(staying.ended).toBe(false);
    for (const stream of Object.values(streams)) expect(stream.got).not.toContain('after the changes');
    for (const stream of [staying, ...Object.values(streams)]) stream.req.destroy();
  });

  it('the dashboard rows and the deployed list; 402 without the kubernetesDashboard feature', async () => {
    const rows = await until(
      async () => (await call('GET', `/projects/${projectId}/kubernetes/main/microservices-status`, members.read.idToken)).json().microservicesStatus,
      (r: { isHealthy: boolean; podStatus: unknown }[]) => r.length === 1 && r[0]!.isHealthy,
      'a healthy row',
    );
    expect(rows[0]).toMatchObject({
      name: 'web',
      namespace: 'team-a',
      version: 'v12',
      registry: 'ecr',
      isPublic: false,
      health: 'HEALTHY',
      podStatus: { runningPods: 2, totalPods: 2, failedPods: 0, pendingPods: 0 },
      lastDeployStatus: 'SUCCEEDED',
    });
    // the cluster status call answers the same rows (spec §7 getKubernetesStatus), from the one list of pods and
    // deployments it counted its figures from: each pod once
    const before = { ...listings };
    const clusterStatus = (await call('GET', `/projects/${projectId}/kubernetes/main/status`, members.read.idToken)).json();
    expect(clusterStatus.microservicesStatus).toEqual([
      expect.objectContaining({ name: 'web', namespace: 'team-a', version: 'v12', lastDeployStatus: 'SUCCEEDED', podStatus: rows[0]!.podStatus }),
    ]);
    expect(listings).toEqual(before);
    expect(clusterStatus.podStatus.totalPods).toBe(k.list('pods').length);
    const deployed = (await call('GET', `/projects/${projectId}/kubernetes/main/microservices`, members.read.idToken)).json();
    expect(deployed.deployedMicroservices).toEqual([expect.objectContaining({ name: 'web', version: 'v12', namespace: 'team-a' })]);
    await expectPlanGated(
      t,
      'kubernetesDashboard',
      [`/projects/${projectId}/kubernetes/main/microservices-status`, `/projects/${projectId}/kubernetes/main/status`].map((url) => ({
        method: 'GET',
        url: `/ms-kube${url}`,
      })),
      owner.idToken,
    );
    expect((await call('GET', `/projects/${otherProjectId}/kubernetes/main/microservices-status`, outsider.idToken)).statusCode).toBe(404);
  });

  it('a re-deploy of a new version keeps the HPA-managed replicas, renews the pull token, and reuses the stored configuration', async () => {
    // the HPA scales to its maximum (every pod busy): its manager takes spec.replicas over
    const busy = () => {
      for (const p of k.list('pods', 'team-a')) k.setPodMetrics('team-a', p.metadata.name, { cpu: '9m', memory: '90Mi' });
      return Promise.resolve(k.get('deployments', 'team-a', 'web')!.spec.replicas as number);
    };
    await until(busy, (r) => r === 5, 'the HPA to scale up to its maximum', 30_000);
    const scaled = k.get('deployments', 'team-a', 'web')!.spec.replicas as number;
    const ownsReplicas = () =>
      k
        .get('deployments', 'team-a', 'web')!
        .metadata.managedFields.some(
          (f: { manager: string; fieldsV1: { 'f:spec'?: object } }) => f.manager === 'gantry' && 'f:replicas' in (f.fieldsV1['f:spec'] ?? {}),
        );
    expect(ownsReplicas()).toBe(false);

    // the pipeline's deploy: a new tag with the stored configuration, a history row with the pipeline initiator
    ecrToken = 'ecr-token-2';
    const lines: string[] = [];
    const port: ServicesPort = t.app.services.services;
    const done = await port.deployVersion({
      projectId,
      clusterId: 'main',
      namespace: 'team-a',
      serviceName: 'web',
      tag: 'v11',
      commit: 'abcdef1234567',
      initiator: { pipelineId: 'pipe-1', buildId: 'build-1' },
      log: (l) => lines.push(l),
    });
    expect(done.done).toBe(true);
    const [note] = (await t.app.inject({ method: 'GET', url: '/ms-notification/notifications', headers: bearer(owner.idToken) })).json().notifications;
    expect(note).toMatchObject({ message: 'Service web (v11) deployed', entityType: 'SERVICE', itemId: 'web', author: 'Gantry' });
    expect(lines).toContain('Applied Deployment web');
    expect(lines).toContain(`Replicas left to the HorizontalPodAutoscaler (now ${scaled})`);
    expect(ownsReplicas()).toBe(false);
    const d = k.get('deployments', 'team-a', 'web')!;
    expect(d.spec.template.spec.containers[0].image).toMatch(/:v11$/);
    expect(d.spec.template.spec.containers[0].env).toEqual(
      expect.arrayContaining([
        { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'web-inputs', key: 'DB_PASSWORD' } } },
        { name: 'FEATURE_X', value: 'on' },
      ]),
    );
    expect(Buffer.from(k.get('secrets', 'team-a', 'web-registry')!.data['.dockerconfigjson'], 'base64').toString()).toContain('ecr-token-2');

    // from the dialog: the sensitive input sent back as the placeholder keeps the stored value
    const res = await call(
      'POST',
      `${inNs('web')}/deploy`,
      owner.idToken,
      deployBody('v10', { deployment: { configurations: [{ key: 'DB_PASSWORD', value: SENSITIVE_PLACEHOLDER }] } }),
    );
    expect(res.statusCode).toBe(200);
    expect(Buffer.from(k.get('secrets', 'team-a', 'web-inputs')!.data.DB_PASSWORD, 'base64').toString()).toBe('hunter2');
    expect(ownsReplicas()).toBe(false);
    const history = (await call('GET', `${svcBase()}/web/history?clusterId=main&limit=2`, members.read.idToken)).json();
    expect(history.history).toHaveLength(2);
    // the tag chosen in the dialog was built from a commit its image's labels name: the row and the cluster's table tell it
    expect(history.history[0]).toMatchObject({
      version: 'v10',
      previousVersion: 'v11',
      commit: V10_COMMIT,
      initiator: { kind: 'user', email: 'owner@example.com' },
    });
    expect(k.get('deployments', 'team-a', 'web')!.metadata.annotations['gantry.io/commit']).toBe(V10_COMMIT);
    expect(history.history[1]).toMatchObject({
      status: 'SUCCEEDED',
      version: 'v11',
      previousVersion: 'v12',
      commit: 'abcdef1234567',
      initiator: { kind: 'pipeline', pipelineId: 'pipe-1', buildId: 'build-1' },
      kubernetesId: 'main',
    });
    expect(history.lastElementCursor).toBe(2);
    const page2 = (await call('GET', `${svcBase()}/web/history?clusterId=main&offset=2&limit=2`, owner.idToken)).json();
    expect(page2.history.map((h: { version: string }) => h.version)).toEqual(['v12']);
    expect(page2.lastElementCursor).toBe(-1);
  });

  it('a failing cluster write is recorded as FAILED with the reason; a public service deploys the same way', async () => {
    const res = await call('POST', `${inNs('web', 'no-such-ns')}/deploy`, owner.idToken, deployBody('v9'));
    expect(res.statusCode).toBe(400);
    expect(res.json().kubernetesError.message).toContain('not found');
    const [note] = (await t.app.inject({ method: 'GET', url: '/ms-notification/notifications', headers: bearer(owner.idToken) })).json().notifications;
    expect(note).toMatchObject({ message: 'Service web (v9) failed to deploy', entityType: 'SERVICE' });
    const h = (await call('GET', `${svcBase()}/web/history?namespace=no-such-ns`, owner.idToken)).json().history;
    expect(h[0]).toMatchObject({ status: 'FAILED', version: 'v9', error: expect.stringContaining('not found') });

    const redis = await call('POST', `${inNs('redis', 'team-b')}/deploy`, owner.idToken, { version: '7.4', autoScaling: SCALING_DEFAULTS });
    expect(redis.statusCode).toBe(200);
    expect(k.get('deployments', 'team-b', 'redis')!.spec.template.spec.containers[0].image).toBe('docker.io/library/redis:7.4');
    expect(k.get('secrets', 'team-b', 'redis-registry')).toBeUndefined();
    expect((await call('DELETE', inNs('redis', 'team-b'), owner.idToken)).json()).toEqual({ done: true });
  });

  it('undeploys exactly what deploy created (read → 403); a second undeploy is 404', async () => {
    expect((await call('DELETE', inNs('web'), members.read.idToken)).statusCode).toBe(403);
    const res = await call('DELETE', inNs('web'), members.write.idToken);
    expect(res.statusCode).toBe(200);
    for (const [kind, name] of [
      ['deployments', 'web'],
      ['services', 'web'],
      ['horizontalpodautoscalers', 'web'],
      ['secrets', 'web-registry'],
      ['secrets', 'web-inputs'],
    ] as const)
      expect(k.get(kind, 'team-a', name), `${kind}/${name}`).toBeUndefined();
    await until(
      async () => k.list('pods', 'team-a').length,
      (n) => n === 0,
      'the pods to go',
    );
    expect((await call('DELETE', inNs('web'), owner.idToken)).statusCode).toBe(404);
    expect((await call('GET', `${inNs('web')}/status`, owner.idToken)).json()).toMatchObject({ deployed: false, configurations: [] });
    expect((await call('GET', `${svcBase()}/web/history?limit=1`, owner.idToken)).json().history[0]).toMatchObject({ status: 'UNDEPLOYED' });
  });

  it('renews an ECR pull secret on a durable job every 6 h while that deploy runs; a re-deploy or undeploy ends the chain', async () => {
    const queued = async (serviceName: string) =>
      (
        await t.app.services.database.executeSql(
          `select data, start_after from pgboss.job where name = '${PULL_RENEWAL_QUEUE}' and state = 'created' order by created_on`,
        )
      ).rows
        .map((r) => r as { data: PullRenewalJob; start_after: string | Date })
        .filter((r) => r.data.serviceName === serviceName)
        .map((r) => ({ ...r.data, at: new Date(r.start_after).getTime() }));
    const t0 = new Date(Date.UTC(2031, 0, 1));
    clock = () => t0;
    try {
      expect((await call('POST', svcBase(), owner.idToken, service('cache', { schema: undefined }))).statusCode).toBe(201);
      ecrToken = 'ecr-token-5';
      const first = (await call('POST', `${inNs('cache', 'team-b')}/deploy`, owner.idToken, { version: 'v1', autoScaling: SCALING_DEFAULTS })).json();
      const [job] = await queued('cache');
      expect(job).toEqual({
        projectId,
        clusterId: 'main',
        namespace: 'team-b',
        serviceName: 'cache',
        historyId: first.historyId,
        at: t0.getTime() + RENEW_EVERY_MS,
      });
      const rollout = k.get('deployments', 'team-b', 'cache')!.metadata.generation;

      ecrToken = 'ecr-token-6';
      clock = () => new Date(t0.getTime() + RENEW_EVERY_MS);
      expect(await t.app.services.services.renewPullSecret(job!)).toBe('renewed');
      const pull = k.get('secrets', 'team-b', 'cache-registry')!;
      expect(Buffer.from(pull.data['.dockerconfigjson'], 'base64').toString()).toContain('ecr-token-6');
      expect(pull.metadata.labels['app.kubernetes.io/managed-by']).toBe('gantry');
      // the pods keep running: only the secret changed
      expect(k.get('deployments', 'team-b', 'cache')!.metadata.generation).toBe(rollout);
      expect((await queued('cache')).map((j) => j.at)).toContain(t0.getTime() + 2 * RENEW_EVERY_MS);

      const second = (await call('POST', `${inNs('cache', 'team-b')}/deploy`, owner.idToken, { version: 'v2', autoScaling: SCALING_DEFAULTS })).json();
      expect(await t.app.services.services.renewPullSecret(job!)).toBe('ended');
      const next = { ...job!, historyId: second.historyId };
      expect(await t.app.services.services.renewPullSecret(next)).toBe('renewed');
      expect((await call('DELETE', inNs('cache', 'team-b'), owner.idToken)).statusCode).toBe(200);
      expect(await t.app.services.services.renewPullSecret(next)).toBe('ended');
      expect(k.get('secrets', 'team-b', 'cache-registry')).toBeUndefined();
      // a public image has no pull secret to renew
      const before = (await queued('redis')).length;
      expect((await call('POST', `${inNs('redis', 'team-b')}/deploy`, owner.idToken, { version: '7.4', autoScaling: SCALING_DEFAULTS })).statusCode).toBe(200);
      expect(await queued('redis')).toHaveLength(before);
      expect((await call('DELETE', inNs('redis', 'team-b'), owner.idToken)).statusCode).toBe(200);
    } finally {
      clock = () => new Date();
    }
  });

  it('puts each deploy and undeploy on the project timeline and tells the project room (service:update); not another project', async () => {
    if (!t.app.server.address()) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const socket = connectSocket(`http://127.0.0.1:${port}`, {
      path: '/ms-realtime/websockets/',
      query: { Authorization: `Bearer ${members.read.idToken}` },
      transports: ['websocket'],
    });
    try {
      const heard: string[] = [];
      socket.on('service:update', (e: { microserviceName: string; namespace: string; status: string; version: string }) =>
        heard.push(`${e.microserviceName} ${e.namespace} ${e.status} ${e.version}`),
      );
      expect(await socket.timeout(10_000).emitWithAck('project:join', projectId)).toEqual({ ok: true });
      expect((await call('POST', `${inNs('web', 'team-b')}/deploy`, members.write.idToken, deployBody('v11'))).statusCode).toBe(200);
      expect((await call('DELETE', inNs('web', 'team-b'), members.write.idToken)).statusCode).toBe(200);
      await until(
        async () => heard,
        (h) => h.length >= 3,
        'the room to hear the deploy start and end, and the undeploy',
      );
      expect(heard).toEqual(['web team-b IN_PROGRESS v11', 'web team-b SUCCEEDED v11', 'web team-b UNDEPLOYED v11']);

      const timeline = async (idToken: string, query: string, p = projectId) =>
        t.app.inject({ method: 'GET', url: `/ms-elasticsearch/projects/${p}/timeline${query}`, headers: bearer(idToken) });
      const deployments = (await timeline(members.read.idToken, '?type=Deployment')).json().events;
      const newest = { type: 'deployment', projectId, microserviceName: 'web', clusterId: 'main', namespace: 'team-b', version: 'v11' };
      expect(deployments.slice(0, 2)).toEqual([
        { ...newest, status: 'UNDEPLOYED', timestamp: expect.any(String), deploymentId: expect.any(String) },
        { ...newest, status: 'SUCCEEDED', timestamp: expect.any(String), deploymentId: expect.any(String) },
      ]);
      // each event has an id of its own (the web keys the timeline's lines by it: shared, lines were doubled or lost)
      const ids = deployments.map((e: { buildId?: string; deploymentId?: string }) => e.buildId ?? e.deploymentId);
      expect(new Set(ids).size).toBe(deployments.length);
      expect(deployments.filter((e: { status: string }) => e.status === 'FAILED')[0]).toMatchObject({ microserviceName: 'web', namespace: 'no-such-ns' });
      expect((await timeline(members.read.idToken, '?type=build')).json().events).toEqual([]);
      const all = (await timeline(members.read.idToken, '')).json().events;
      expect(all.map((e: { timestamp: string }) => e.timestamp)).toEqual([...all.map((e: { timestamp: string }) => e.timestamp)].sort().reverse());
      expect((await timeline(outsider.idToken, '')).statusCode).toBe(404);
      expect((await timeline(outsider.idToken, '', otherProjectId)).json().events).toEqual([]);
    } finally {
      socket.close();
    }
  });

  it('a cluster that does not answer in time fails with a clear 502, not a hang', async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const { kubernetesClusters } = await import('../clusters/clusters.tables.js');
      await t.app.services.database.db
        .update(kubernetesClusters)
        .set({ endpoint: url })
        .where(sql`name = 'main'`);
      const res = await call('GET', `${inNs('web')}/pods`, owner.idToken);
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toContain('no answer');
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  }, 30_000);
});
