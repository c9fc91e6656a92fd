import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKubeStandin, type KubeStandin } from '@gantry/test-support';
import {
  KubeFailure,
  averageUtilization,
  connectKube,
  connectWithin,
  countPods,
  parseQuantity,
  requiredAccess,
  type KubeConnector,
  type KubeTarget,
} from './index.js';

let k: KubeStandin;
let silent: net.Server;
let silentUrl: string;
const held = new Set<net.Socket>();

beforeAll(async () => {
  k = await startKubeStandin({ nodes: 2, tickMs: 20, namespaces: ['team-a'] });
  // accepts connections and never answers (a cluster behind a black hole)
  silent = net.createServer((socket) => {
    held.add(socket);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `https://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
});
afterAll(async () => {
  await k?.close();
  for (const s of held) s.destroy();
  await new Promise<void>((resolve) => (silent ? silent.close(() => resolve()) : resolve()));
});

const failure = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(KubeFailure);
  return err as KubeFailure;
};

describe('the Kubernetes adapter (client-node 1.x, in-memory kubeconfig)', () => {
  it('reads the version and grants the admin token what Gantry needs', async () => {
    const kube = connectKube({ endpoint: k.url, token: k.adminToken, caCertificate: k.caPem });
    expect(await kube.version()).toBe('v1.30.0-gantry-standin');
    expect(await kube.firstDenied(requiredAccess())).toBeNull();
    expect(await kube.firstDenied(requiredAccess('team-a'))).toBeNull();
    expect(await kube.namespaces()).toEqual(expect.arrayContaining(['default', 'team-a']));
  });

  it('says why: a bad token is refused, an unknown CA and a closed port are unreachable, a silent server times out', async () => {
    expect(await failure(connectKube({ endpoint: k.url, token: 'nope', caCertificate: k.caPem }).version())).toMatchObject({
      kind: 'refused',
      message: expect.stringContaining('401 Unauthorized'),
    });
    const tls = await failure(connectKube({ endpoint: k.url, token: k.adminToken }).version());
    expect(tls).toMatchObject({ kind: 'unreachable', message: expect.stringContaining('TLS certificate is not trusted'), o: { certificate: true } });
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    expect(await failure(connectKube({ endpoint: `https://127.0.0.1:${closed}`, token: 't' }).version())).toMatchObject({
      kind: 'unreachable',
      message: `connection refused by 127.0.0.1:${closed}`,
    });
    expect(await failure(connectKube({ endpoint: silentUrl, token: 't' }, { timeoutMs: 200 }).version())).toMatchObject({
      kind: 'unreachable',
      message: expect.stringMatching(/^no answer from 127\.0\.0\.1:\d+ within 0\.2 s$/),
    });
  });

  it('answers the first right a restricted token lacks, in the namespace or cluster-wide', async () => {
    const viewer = k.addToken('viewer', [{ verbs: ['get', 'list'], resources: ['*'], apiGroups: ['*'], namespaces: ['team-a'] }]);
    const kube = connectKube({ endpoint: k.url, token: viewer, caCertificate: k.caPem });
    expect(await kube.firstDenied(requiredAccess())).toMatchObject({ check: { verb: 'list', resource: 'pods' } });
    expect(await kube.firstDenied(requiredAccess('team-a'))).toMatchObject({
      check: { verb: 'create', resource: 'deployments', group: 'apps', namespace: 'team-a' },
    });
  });
});

describe('figures', () => {
  it('parses quantities', () => {
    expect(parseQuantity('3900m')).toBeCloseTo(3.9);
    expect(parseQuantity('50000000n')).toBeCloseTo(0.05);
    expect(parseQuantity('2Gi')).toBe(2 ** 31);
    expect(parseQuantity('512Ki')).toBe(512 * 1024);
    expect(parseQuantity('4')).toBe(4);
    expect(parseQuantity('1e3')).toBe(1000);
  });

  it('counts a crash-looping pod (phase Running) as failed', () => {
    const pod = (phase: string, waiting?: string) => ({
      status: {
        phase,
        containerStatuses: waiting ? [{ name: 'c', image: 'i', imageID: '', ready: false, restartCount: 1, state: { waiting: { reason: waiting } } }] : [],
      },
    });
    expect(
      countPods([
        pod('Running'),
        pod('Running', 'CrashLoopBackOff'),
        pod('Running', 'ContainerCreating'),
        pod('Pending'),
        pod('Failed'),
        pod('Succeeded'),
        pod('Unknown'),
      ]),
    ).toEqual({ running: 2, succeeded: 1, failed: 2, pending: 2, total: 7 });
  });

  it('averages utilization over the nodes with metrics; null without metrics', () => {
    const node = (name: string) => ({ metadata: { name }, status: { allocatable: { cpu: '2', memory: '1Gi' } } });
    expect(
      averageUtilization(
        [node('a'), node('b')],
        [
          { metadata: { name: 'a' }, usage: { cpu: '500m', memory: '512Mi' } },
          { metadata: { name: 'b' }, usage: { cpu: '1', memory: '256Mi' } },
        ],
      ),
    ).toEqual({ cpu: 37.5, memory: 37.5 });
    expect(averageUtilization([node('a')], null)).toBeNull();
    expect(averageUtilization([node('a')], [])).toBeNull();
  });
});

describe('reasons from servers that are not Kubernetes', () => {
  it('names the status of a non-Kubernetes answer without repeating its body', async () => {
    const http = await import('node:http');
    const other = http.createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>internal admin page secret</html>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as net.AddressInfo).port}`;
      const f = await failure(connectKube({ endpoint: url, token: 't' }).version());
      expect(f).toMatchObject({ kind: 'unreachable', message: 'the endpoint answered HTTP 404, not as a Kubernetes API server' });
      expect(f.message).not.toContain('secret');
    } finally {
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });
});

describe('connectWithin', () => {
  it('refuses a loopback endpoint under lan before the connector sends anything', async () => {
    const sent: string[] = [];
    const fake = (() => ({
      version: async () => {
        sent.push('version');
        return 'v1.30.0';
      },
    })) as unknown as KubeConnector;
    const kube = connectWithin('lan', fake)({ endpoint: 'https://127.0.0.1:6443', token: 't' } as KubeTarget);
    await expect(kube.version()).rejects.toMatchObject({
      kind: 'unreachable',
      message: expect.stringMatching(/127\.0\.0\.1:6443 is a loopback or link-local address/),
    });
    expect(sent).toEqual([]);
    expect(await connectWithin('any', fake)({ endpoint: 'https://127.0.0.1:6443', token: 't' } as KubeTarget).version()).toBe('v1.30.0');
    expect(await connectWithin('lan', fake)({ endpoint: 'https://10.0.0.8:6443', token: 't' } as KubeTarget).version()).toBe('v1.30.0');
  });
});
