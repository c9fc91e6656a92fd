import dns from 'node:dns/promises';
import { lookup as dnsLookup } from 'node:dns';
import type { Agent } from 'node:http';
import net, { type LookupFunction } from 'node:net';
import type { Dispatcher } from 'undici';

/**
 * Which addresses a URL a user typed may lead the server to (OUTBOUND_NETWORK): registry URLs (and the
 * token realms and redirects they name), cluster API endpoints. Sign-up is open, so such a URL must not
 * make the server reach its own loopback services or a cloud metadata endpoint for whoever asks:
 *  - `lan` (default): public and private (10/8, 172.16/12, 192.168/16, fc00::/7) addresses — a
 *    self-hosted Harbor or Distribution on the office network works; loopback and link-local do not;
 *  - `public`: public addresses only;
 *  - `any`: everything (a single-user instance, and the tests' registries on 127.0.0.1).
 */
export type OutboundNetwork = 'lan' | 'public' | 'any';

/** A URL the server refuses to reach under OUTBOUND_NETWORK (the message says why). */
export class OutboundRefused extends Error {}

const LOOPBACK_AND_LINK_LOCAL = new net.BlockList();
LOOPBACK_AND_LINK_LOCAL.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK_AND_LINK_LOCAL.addSubnet('0.0.0.0', 8, 'ipv4');
LOOPBACK_AND_LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LOOPBACK_AND_LINK_LOCAL.addSubnet('100.100.100.200', 32, 'ipv4'); // Alibaba Cloud's metadata service
LOOPBACK_AND_LINK_LOCAL.addAddress('::1', 'ipv6');
LOOPBACK_AND_LINK_LOCAL.addAddress('::', 'ipv6');
LOOPBACK_AND_LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');
LOOPBACK_AND_LINK_LOCAL.addSubnet('fd00:ec2::', 32, 'ipv6'); // AWS's IPv6 metadata service

const PRIVATE = new net.BlockList();
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');

/** The IPv4 address in the 32 bits of an IPv6 address that start at `hextet` (0-based), or null. */
function embeddedIpv4(address: string, hextet: number): string | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const hi = groups[hextet]!;
  const lo = groups[hextet + 1]!;
  return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
}
/** The eight 16-bit groups of an IPv6 address (`::` and a dotted IPv4 tail expanded). */
function expandIpv6(address: string): number[] | null {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.length === 8 ? groups.map((g) => parseInt(g, 16)) : null;
}

/**
 * An IPv6 address that carries an IPv4 one is judged as that IPv4 address: IPv4-mapped (::ffff:127.0.0.1),
 * NAT64 (64:ff9b::/96, which a DNS64 network routes to the IPv4 address) and 6to4 (2002::/16).
 */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  if (!net.isIPv6(address)) return { address, family: 'ipv4' };
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return { address: m[1]!, family: 'ipv4' };
  if (NAT64.check(address, 'ipv6')) return { address: embeddedIpv4(address, 6) ?? address, family: 'ipv4' };
  if (SIX_TO_FOUR.check(address, 'ipv6')) return { address: embeddedIpv4(address, 1) ?? address, family: 'ipv4' };
  return { address, family: 'ipv6' };
}
const NAT64 = new net.BlockList();
NAT64.addSubnet('64:ff9b::', 96, 'ipv6');
const SIX_TO_FOUR = new net.BlockList();
SIX_TO_FOUR.addSubnet('2002::', 16, 'ipv6');

/** Why `address` is out of bounds under `network`, or null when the server may reach it. */
export function refusedAddress(address: string, network: OutboundNetwork): string | null {
  if (network === 'any') return null;
  const a = unmapped(address);
  if (LOOPBACK_AND_LINK_LOCAL.check(a.address, a.family)) return 'a loopback or link-local address';
  if (network === 'public' && PRIVATE.check(a.address, a.family)) return 'a private network address';
  return null;
}

/** Why the server may not connect to an address (null: it may): refusedAddress under a network, or a test's own rule. */
export type AddressPolicy = (address: string) => string | null;

/** The policy of `network`; null under `any` (nothing to check). */
export const policyOf = (network: OutboundNetwork): AddressPolicy | null => (network === 'any' ? null : (address) => refusedAddress(address, network));

const refusal = (host: string, why: string) => new OutboundRefused(`${host} is ${why}, which Gantry does not reach for a URL a user gave`);

/** A DNS lookup for net.connect that refuses a name when any of its addresses is out of bounds. */
export function lookupWithin(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const why = policy(a.address);
        if (why) return callback(Object.assign(refusal(hostname, why), { code: 'EOUTBOUNDREFUSED' }), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, all: typeof addresses) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * Checks every connection `agent` opens, as it opens it: the address a literal host names, or each address
 * its name resolves to then (not at an earlier check: DNS rebinding), for every request and redirect made
 * through the agent — a client that follows redirects itself (the Kubernetes client) cannot be led past it.
 */
export function connectionsWithin<A extends Agent>(agent: A, policy: AddressPolicy): A {
  type CreateConnection = (options: Record<string, unknown>, callback: (err: Error | null, socket?: unknown) => void) => unknown;
  const guarded = agent as unknown as { createConnection: CreateConnection };
  const create = guarded.createConnection.bind(agent);
  guarded.createConnection = (options, callback) => {
    const host = String(options.host ?? options.hostname ?? '').replace(/^\[|\]$/g, '');
    const why = net.isIP(host) ? policy(host) : null;
    if (why) {
      // the agent's own callback (err, socket): the request fails with this error, nothing is sent
      callback(refusal(host, why));
      return undefined;
    }
    return create({ ...options, lookup: lookupWithin(policy) }, callback);
  };
  return agent;
}

/** Refuses (OutboundRefused) a URL whose host is, or resolves to, an address out of bounds under `network`. */
export async function assertReachable(url: URL, network: OutboundNetwork): Promise<void> {
  if (network === 'any') return;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(`Gantry reaches such URLs over http or https only, not ${url.protocol}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = net.isIP(host) ? [host] : (await dns.lookup(host, { all: true }).catch(() => [])).map((r) => r.address);
  for (const address of addresses) {
    const why = refusedAddress(address, network);
    if (why) throw new OutboundRefused(`${url.host} is ${why}, which Gantry does not reach for a URL a user gave (OUTBOUND_NETWORK=${network})`);
  }
}

const MAX_REDIRECTS = 5;

/**
 * One undici dispatcher per network whose connections resolve names through lookupWithin, made on first use
 * (undici is loaded then, not at start-up: 75 ms).
 */
const dispatchers = new Map<OutboundNetwork, Promise<Dispatcher>>();
function dispatcherWithin(network: OutboundNetwork): Promise<Dispatcher> {
  let d = dispatchers.get(network);
  if (!d) {
    d = import('undici').then(({ Agent }) => new Agent({ connect: { lookup: lookupWithin(policyOf(network)!) } }));
    dispatchers.set(network, d);
  }
  return d;
}

/**
 * fetch for user-named registries: every host (the first URL's and each redirect's) is resolved
 * and refused when any of its addresses is out of bounds; redirects are followed here, not by fetch.
 * The connection itself resolves the name through the same check (a name that resolves differently
 * between the check and the connection, DNS rebinding, is refused too).
 */
export function guardedFetch(network: OutboundNetwork, base: typeof fetch = fetch): typeof fetch {
  if (network === 'any') return base;
  const check = (url: URL) => assertReachable(url, network);
  return (async (input: string | URL | Request, init?: RequestInit) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    for (let hop = 0; ; hop++) {
      await check(url);
      const dispatcher = await dispatcherWithin(network);
      const res = await base(url, { ...init, redirect: 'manual', dispatcher } as RequestInit).catch((err: unknown) => {
        const cause = (err as { cause?: unknown }).cause;
        throw cause instanceof OutboundRefused ? cause : err;
      });
      const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
      if (!location) return res;
      if (hop >= MAX_REDIRECTS) throw new OutboundRefused(`${url.host} redirected more than ${MAX_REDIRECTS} times`);
      await res.body?.cancel();
      const next = new URL(location, url);
      // like fetch: credentials stay with their origin (a blob redirect to object storage must not carry them)
      if (next.origin !== url.origin && init?.headers) {
        const headers = new Headers(init.headers);
        headers.delete('authorization');
        init = { ...init, headers };
      }
      url = next;
      // like fetch: a 303 (and a 301/302 after a POST) continues as a GET without a body
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && init?.method === 'POST')) init = { ...init, method: 'GET', body: undefined };
    }
  }) as typeof fetch;
}
