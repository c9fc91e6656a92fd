import http from 'node:http';
import dnsPromises from 'node:dns/promises';
import type { AddressInfo } from 'node:net';
import { Agent as UndiciAgent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  connectionsWithin,
  guardedFetch,
  lookupWithin,
  OutboundRefused,
  refusedAddress,
  type AddressPolicy,
} from '../../src/integrations/outbound/outbound.js';
import { registryFetchWithin, RegistryFailure } from '../../src/integrations/registries/index.js';
import { connectKube, connectWithin, KubeFailure } from '../../src/integrations/kubernetes/index.js';
import { serviceKubeConnector } from '../../src/modules/services/services.kube.js';

/**
 * A user's URL (a cluster's API endpoint) may lead the server only where OUTBOUND_NETWORK allows, also when the
 * server it names answers with a redirect (the Kubernetes client follows them itself) or its name resolves to
 * another address by the time the server connects (DNS rebinding). Only loopback is used: 127.0.0.1 plays the
 * user's server, 127.0.0.2 the address out of bounds (a metadata service, the instance's own API).
 */
const servers: http.Server[] = [];
const asked: string[] = [];
let outside: string;
let redirecting: string;
let cluster: string;

async function listen(host: string, handler: http.RequestListener) {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}
const version = JSON.stringify({ major: '1', minor: '31', gitVersion: 'v1.31.0' });

beforeAll(async () => {
  outside = await listen('127.0.0.2', (req, res) => {
    asked.push(`outside ${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    res.end(version);
  });
  redirecting = await listen('127.0.0.1', (req, res) => {
    asked.push(`redirecting ${req.method} ${req.url}`);
    res.writeHead(307, { location: `${outside}${req.url}` }).end();
  });
  cluster = await listen('127.0.0.1', (req, res) => {
    asked.push(`cluster ${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    res.end(version);
  });
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});
afterEach(() => {
  asked.length = 0;
  vi.restoreAllMocks();
});

/** 127.0.0.2 is out of bounds, 127.0.0.1 is not (as a LAN address would be under `lan`). */
const notOutside: AddressPolicy = (address) => (address === '127.0.0.2' ? 'the address out of bounds' : null);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as Error,
  );

describe('connections checked as they are opened', () => {
  it('an agent refuses an address out of bounds, and a name resolving to one, before connecting', async () => {
    const get = (url: string, agent: http.Agent) =>
      new Promise<number>((resolve, reject) => http.get(url, { agent }, (res) => resolve(res.resume().statusCode!)).on('error', reject));
    const agent = connectionsWithin(new http.Agent(), notOutside);
    expect(await get(`${cluster}/version`, agent)).toBe(200);
    expect((await failure(get(`${outside}/latest/meta-data/`, agent)))?.message).toMatch(
      /127\.0\.0\.2 is the address out of bounds, which Gantry does not reach/,
    );
    const lan = connectionsWithin(new http.Agent(), (a) => refusedAddress(a, 'lan'));
    expect((await failure(get(`${cluster.replace('127.0.0.1', 'localhost')}/version`, lan)))?.message).toMatch(/localhost is a loopback or link-local address/);
    expect(asked).toEqual(['cluster GET /version']);
  });

  it("a cluster endpoint's redirect to an address out of bounds is not followed (the Kubernetes client follows redirects itself)", async () => {
    const viaRedirect = connectKube({ endpoint: redirecting, token: 't' }, { timeoutMs: 3000, outbound: notOutside });
    const err = await failure(viaRedirect.version());
    expect(err).toBeInstanceOf(KubeFailure);
    expect(err?.message).toMatch(/127\.0\.0\.2 is the address out of bounds/);
    expect(asked.filter((a) => a.startsWith('outside'))).toEqual([]);
    // the same client without the check: it did follow (the control)
    expect(await connectKube({ endpoint: redirecting, token: 't' }, { timeoutMs: 3000 }).version()).toBe('v1.31.0');
    expect(asked.filter((a) => a.startsWith('outside'))).toEqual(['outside GET /version']);
  });

  it('a cluster name that passed the check as a public address but resolves to loopback when connecting (DNS rebinding) is refused', async () => {
    // the first answer, to the check before the call, is a public address; the connection resolves the name again
    vi.spyOn(dnsPromises, 'lookup').mockResolvedValue([{ address: '93.184.216.34', family: 4 }] as never);
    const endpoint = cluster.replace('127.0.0.1', 'localhost');
    const err = await failure(connectWithin('lan')({ endpoint, token: 't' }, { timeoutMs: 3000 }).version());
    expect(err).toBeInstanceOf(KubeFailure);
    expect(err?.message).toMatch(/localhost is a loopback or link-local address/);
    // the services' client (a service's deployment on its cluster) likewise
    const services = serviceKubeConnector('lan')({ endpoint, token: 't' }, { timeoutMs: 3000 });
    expect((await failure(services.readDeployment('default', 'web')))?.message).toMatch(/localhost is a loopback or link-local address/);
    expect(vi.mocked(dnsPromises.lookup)).toHaveBeenCalled();
    expect(asked).toEqual([]);
  });

  it("a registry's or a Slack webhook's name that passed the check but resolves to loopback when connecting is refused (guardedFetch)", async () => {
    vi.spyOn(dnsPromises, 'lookup').mockResolvedValue([{ address: '93.184.216.34', family: 4 }] as never);
    const url = `${cluster.replace('127.0.0.1', 'localhost')}/v2/`;
    const err = await failure(guardedFetch('lan')(url));
    expect(err).toBeInstanceOf(OutboundRefused);
    expect(err?.message).toMatch(/localhost is a loopback or link-local address/);
    // a registry's check says why, as for a literal address
    const registry = await failure(registryFetchWithin('public')(url));
    expect(registry).toBeInstanceOf(RegistryFailure);
    expect(registry?.message).toMatch(/localhost is a loopback or link-local address/);
    expect(asked).toEqual([]);
    // the same dispatcher with global fetch, a policy that lets 127.0.0.1 in: the address in bounds is reached (the control)
    vi.restoreAllMocks();
    const inBounds = new UndiciAgent({ connect: { lookup: lookupWithin(notOutside) } });
    expect((await fetch(url, { dispatcher: inBounds } as RequestInit)).status).toBe(200);
    await inBounds.close();
  });
});

describe('refusedAddress: IPv6 addresses that carry an IPv4 one', () => {
  it.each([
    ['64:ff9b::a9fe:a9fe', 'lan', 'a loopback or link-local address'],
    ['64:ff9b::127.0.0.1', 'lan', 'a loopback or link-local address'],
    ['64:ff9b::a00:5', 'public', 'a private network address'],
    ['2002:a9fe:a9fe::1', 'lan', 'a loopback or link-local address'],
    ['2002:c0a8:101::', 'public', 'a private network address'],
    ['::ffff:7f00:1', 'lan', 'a loopback or link-local address'],
    ['64:ff9b::5db8:d822', 'public', null],
    ['2002:5db8:d822::', 'public', null],
    ['2606:4700::1111', 'public', null],
  ] as const)('%s under %s → %s', (address, network, why) => {
    expect(refusedAddress(address, network)).toBe(why);
  });
});
