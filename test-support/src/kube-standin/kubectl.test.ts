import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeStandin, type KubeStandin } from './index.js';

// kubectl runs as a child process (asynchronously: the stand-in answers from this same event loop)

const DEPLOYMENT = (o: { name: string; image: string; replicas?: number }) =>
  JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: o.name, namespace: 'default', labels: { app: o.name } },
    spec: {
      ...(o.replicas !== undefined ? { replicas: o.replicas } : {}),
      selector: { matchLabels: { app: o.name } },
      template: {
        metadata: { labels: { app: o.name } },
        spec: {
          containers: [{ name: o.name, image: o.image, env: [{ name: 'GREETING', value: 'hello' }], resources: { requests: { cpu: '100m', memory: '64Mi' } } }],
        },
      },
    },
  });

let k: KubeStandin;
let dir: string;

function kubectl(args: string[], o: { token?: string; config?: string } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let config = o.config ?? path.join(dir, 'admin.kubeconfig');
  if (o.token) {
    config = path.join(dir, `t-${o.token.slice(-8)}.kubeconfig`);
    fs.writeFileSync(config, k.kubeconfig({ token: o.token }));
  }
  return new Promise((resolve) => {
    execFile('kubectl', ['--kubeconfig', config, ...args], { timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

const ok = async (args: string[], o?: { token?: string }) => {
  const r = await kubectl(args, o);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
};

const write = (name: string, text: string) => {
  const f = path.join(dir, name);
  fs.writeFileSync(f, text);
  return f;
};

const rows = (table: string) =>
  table
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s{2,}/));

async function until<T>(fn: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  k = await startKubeStandin({ namespaces: ['team-a'] });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-standin-kubectl-'));
  fs.writeFileSync(path.join(dir, 'admin.kubeconfig'), k.kubeconfig());
});
afterAll(async () => {
  await k?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('kube stand-in checked with kubectl', () => {
  it('serves nodes with capacity, allocatable and conditions over HTTPS with its own CA', async () => {
    const list = JSON.parse(await ok(['get', 'nodes', '-o', 'json']));
    expect(list.items).toHaveLength(3);
    const n = list.items[0];
    expect(n).toMatchObject({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'standin-node-1' },
      status: { capacity: { cpu: '8', pods: '110' }, allocatable: { cpu: '7900m' } },
    });
    expect(n.status.conditions.find((c: any) => c.type === 'Ready').status).toBe('True');
    expect(rows(await ok(['get', 'nodes']))[0]).toEqual(['standin-node-1', 'Ready', '<none>', expect.any(String), 'v1.30.0']);
    expect((await ok(['version', '-o', 'json'])).includes('v1.30.0-gantry-standin')).toBe(true);
  });

  it('server-side applies a Deployment whose pods run, log, and show in get pods -A', async () => {
    const f = write('web.json', DEPLOYMENT({ name: 'web', image: 'nginx:1.25', replicas: 2 }));
    expect((await ok(['apply', '--server-side', '-f', f, '--field-manager', 'gantry'])).trim()).toBe('deployment.apps/web serverside-applied');
    const pods = await until(async () => {
      const r = rows(await ok(['get', 'pods', '-A'])).filter((x) => x[1].startsWith('web-'));
      return r.length === 2 && r.every((x) => x[3] === 'Running') ? r : undefined;
    });
    expect(pods[0]).toEqual(['default', expect.stringMatching(/^web-[a-z0-9]{10}-[a-z0-9]{5}$/), '1/1', 'Running', '0', expect.any(String)]);
    const d = JSON.parse(await ok(['get', 'deployment', 'web', '-o', 'json', '--show-managed-fields']));
    expect(d.status).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 2, updatedReplicas: 2, observedGeneration: 1 });
    expect(d.metadata.managedFields[0]).toMatchObject({ manager: 'gantry', operation: 'Apply', fieldsType: 'FieldsV1' });
    expect(d.metadata.managedFields[0].fieldsV1['f:spec']['f:replicas']).toEqual({});
    const pod = JSON.parse(await ok(['get', 'pod', pods[0][1], '-o', 'json']));
    expect(pod.metadata.ownerReferences[0]).toMatchObject({ kind: 'ReplicaSet', controller: true });
    expect(pod.metadata.labels).toMatchObject({ app: 'web', 'pod-template-hash': expect.any(String) });

    const logs = await ok(['logs', pods[0][1]]);
    expect(logs).toContain('starting web from image nginx:1.25');
    expect(logs).toContain('env GREETING=hello');
    k.addLogLine('default', pods[0][1], 'GET /healthz 200');
    expect((await ok(['logs', pods[0][1], '--tail=1'])).trim()).toBe('GET /healthz 200');

    const follow = spawn('kubectl', ['--kubeconfig', path.join(dir, 'admin.kubeconfig'), 'logs', '-f', pods[0][1]]);
    let out = '';
    follow.stdout.on('data', (b: Buffer) => (out += b.toString()));
    await until(() => out.includes('GET /healthz 200'));
    k.addLogLine('default', pods[0][1], 'streamed line');
    await until(() => out.includes('streamed line'));
    follow.kill();

    const events = rows(await ok(['get', 'events', '--field-selector', `involvedObject.name=${pods[0][1]}`]));
    expect(events.map((e) => e[2])).toEqual(['Scheduled', 'Pulled', 'Created', 'Started']);
    expect(events[0]).toEqual([
      expect.any(String),
      'Normal',
      'Scheduled',
      `pod/${pods[0][1]}`,
      expect.stringMatching(/^Successfully assigned default\/web-.* to standin-node-\d$/),
    ]);
  });

  it('shows a failing image as CrashLoopBackOff with a BackOff event and a previous log', async () => {
    await ok(['apply', '--server-side', '-f', write('bad.json', DEPLOYMENT({ name: 'bad', image: 'example/fail:1' })), '--field-manager', 'gantry']);
    const pod = await until(async () => rows(await ok(['get', 'pods', '-l', 'app=bad'])).find((r) => r[2] === 'CrashLoopBackOff'));
    expect(pod[1]).toBe('0/1');
    expect(pod[3]).toBe('1');
    const ev = rows(await ok(['get', 'events', '--field-selector', `involvedObject.name=${pod[0]},type=Warning`]));
    expect(ev[0].slice(1, 3)).toEqual(['Warning', 'BackOff']);
    expect(await ok(['logs', pod[0], '--previous'])).toContain('fatal: bad exited with code 1');
    const d = JSON.parse(await ok(['get', 'deploy', 'bad', '-o', 'json']));
    expect(d.status.conditions.find((c: any) => c.type === 'Available')).toMatchObject({ status: 'False', reason: 'MinimumReplicasUnavailable' });
    await ok(['delete', 'deployment', 'bad']);
  });

  it('answers auth can-i from the token rules; 403 and 401 are real Status errors', async () => {
    const dev = k.addToken('dev', [{ verbs: ['get', 'list', 'watch'], resources: ['pods', 'pods/log'], apiGroups: [''], namespaces: ['team-a'] }]);
    expect((await ok(['auth', 'can-i', 'list', 'pods', '-n', 'team-a'], { token: dev })).trim()).toBe('yes');
    const no = await kubectl(['auth', 'can-i', 'delete', 'pods', '-n', 'team-a'], { token: dev });
    expect([no.code, no.stdout.trim()]).toEqual([1, 'no']);
    expect((await kubectl(['auth', 'can-i', 'create', 'deployments.apps', '-n', 'team-a'], { token: dev })).stdout.trim()).toBe('no');
    expect((await ok(['auth', 'can-i', 'create', 'deployments.apps', '-n', 'team-a'])).trim()).toBe('yes');
    expect(rows(await ok(['get', 'pods', '-n', 'team-a'], { token: dev }))).toEqual([]);
    const denied = await kubectl(['get', 'pods', '-n', 'default'], { token: dev });
    expect(denied.stderr).toContain(
      'Error from server (Forbidden): pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "default"',
    );
    const nodes = await kubectl(['get', 'nodes'], { token: dev });
    expect(nodes.stderr).toContain('User "dev" cannot list resource "nodes" in API group "" at the cluster scope');
    const bad = await kubectl(['get', 'pods'], { token: 'not-a-token' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
  });

  it('kubectl top reads metrics.k8s.io', async () => {
    const [pod] = rows(await ok(['get', 'pods', '-l', 'app=web']));
    k.setPodMetrics('default', pod[0], { cpu: '150m', memory: '100Mi' });
    const top = rows(await ok(['top', 'pods', '-l', 'app=web']));
    expect(top.find((r) => r[0] === pod[0])).toEqual([pod[0], '150m', '100Mi']);
    k.setNodeMetrics('standin-node-1', { cpu: '2', memory: '4Gi' });
    expect(rows(await ok(['top', 'nodes'])).find((r) => r[0] === 'standin-node-1')).toEqual([
      'standin-node-1',
      '2000m',
      '25%',
      '4096Mi',
      expect.stringMatching(/%$/),
    ]);
  });

  it('an HPA scales to its minimum and a re-apply that leaves replicas out keeps them', async () => {
    const hpa = write(
      'hpa.json',
      JSON.stringify({
        apiVersion: 'autoscaling/v2',
        kind: 'HorizontalPodAutoscaler',
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
          minReplicas: 3,
          maxReplicas: 5,
          metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
        },
      }),
    );
    expect((await ok(['apply', '--server-side', '-f', hpa, '--field-manager', 'gantry'])).trim()).toBe(
      'horizontalpodautoscaler.autoscaling/web serverside-applied',
    );
    await until(async () => JSON.parse(await ok(['get', 'deploy', 'web', '-o', 'json'])).status.readyReplicas === 3);
    const [row] = await until(async () => {
      const r = rows(await ok(['get', 'hpa']));
      return r[0]?.[2]?.startsWith('cpu: ') && !r[0][2].includes('unknown') ? r : undefined;
    });
    expect(row).toEqual(['web', 'Deployment/web', expect.stringMatching(/^cpu: \d+%\/80%$/), '3', '5', '3', expect.any(String)]);
    const d = JSON.parse(await ok(['get', 'deploy', 'web', '-o', 'json', '--show-managed-fields']));
    expect(d.metadata.managedFields.find((m: any) => m.manager === 'kube-controller-manager')).toMatchObject({
      operation: 'Update',
      subresource: 'scale',
      fieldsV1: { 'f:spec': { 'f:replicas': {} } },
    });

    const same = await kubectl(['apply', '--server-side', '-f', path.join(dir, 'web.json'), '--field-manager', 'gantry']);
    expect(same.stderr).toContain('conflict with "kube-controller-manager"');
    expect(same.stderr).toContain('.spec.replicas');
    await ok(['apply', '--server-side', '-f', write('web-norep.json', DEPLOYMENT({ name: 'web', image: 'nginx:1.26' })), '--field-manager', 'gantry']);
    await k.settle();
    const after = JSON.parse(await ok(['get', 'deploy', 'web', '-o', 'json']));
    expect(after.spec.replicas).toBe(3);
    expect(after.spec.template.spec.containers[0].image).toBe('nginx:1.26');
    expect(after.metadata.generation).toBe(3);
    const rs = rows(await ok(['get', 'rs', '-l', 'app=web']));
    expect(rs.map((r) => r[1]).sort()).toEqual(['0', '3']);
  });

  it('creates docker-registry secrets, services and namespaces; deletes a namespace and a deployment with its pods', async () => {
    await ok(['create', 'secret', 'docker-registry', 'regcred', '--docker-server=registry.local:5000', '--docker-username=u', '--docker-password=p']);
    const s = JSON.parse(await ok(['get', 'secret', 'regcred', '-o', 'json']));
    expect(s.type).toBe('kubernetes.io/dockerconfigjson');
    expect(JSON.parse(Buffer.from(s.data['.dockerconfigjson'], 'base64').toString()).auths['registry.local:5000']).toMatchObject({
      username: 'u',
      password: 'p',
    });
    await ok(['expose', 'deployment', 'web', '--port=80', '--target-port=8080']);
    expect(rows(await ok(['get', 'svc', 'web']))[0]).toEqual(['web', 'ClusterIP', expect.stringMatching(/^10\.96\./), '<none>', '80/TCP', expect.any(String)]);

    await ok(['create', 'namespace', 'team-b']);
    await ok([
      'apply',
      '--server-side',
      '-n',
      'team-b',
      '-f',
      write('nsd.json', DEPLOYMENT({ name: 'api', image: 'api:1' }).replace('"namespace":"default"', '"namespace":"team-b"')),
      '--field-manager',
      'gantry',
    ]);
    expect((await ok(['delete', 'namespace', 'team-b'])).trim()).toBe('namespace "team-b" deleted');
    expect((await kubectl(['get', 'ns', 'team-b'])).stderr).toContain('namespaces "team-b" not found');
    expect(k.list('pods', 'team-b')).toEqual([]);

    expect((await ok(['delete', 'deployment', 'web'])).trim()).toBe('deployment.apps "web" deleted');
    await until(() => k.list('pods', 'default').length === 0);
    expect((await kubectl(['get', 'deploy', 'web'])).stderr).toContain('Error from server (NotFound): deployments.apps "web" not found');
  });
});

describe('a cluster without metrics-server', () => {
  it('answers 404 on metrics.k8s.io, so kubectl top says the Metrics API is not available', async () => {
    const bare = await startKubeStandin({ metrics: false, nodes: 1 });
    try {
      const config = path.join(dir, 'bare.kubeconfig');
      fs.writeFileSync(config, bare.kubeconfig());
      const r = await kubectl(['top', 'nodes'], { config });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('Metrics API not available');
      const res = await fetch(`${bare.url}/apis/metrics.k8s.io/v1beta1/nodes`, {
        headers: { authorization: `Bearer ${bare.adminToken}` },
        dispatcher: undefined,
      } as RequestInit).catch((e: Error) => e);
      expect(res).toBeInstanceOf(Error); // node's fetch does not trust the private CA: clients must be given caPem
    } finally {
      await bare.close();
    }
  });
});
