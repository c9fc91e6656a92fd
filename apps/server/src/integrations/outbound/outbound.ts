import dns from 'node:dns/promises';
import net from 'node:net';

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

/** An IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it carries. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return { address: m[1]!, family: 'ipv4' };
  return { address, family: net.isIPv6(address) ? 'ipv6' : 'ipv4' };
}

/** Why `address` is out of bounds under `network`, or null when the server may reach it. */
export function refusedAddress(address: string, network: OutboundNetwork): string | null {
  if (network === 'any') return null;
  const a = unmapped(address);
  if (LOOPBACK_AND_LINK_LOCAL.check(a.address, a.family)) return 'a loopback or link-local address';
  if (network === 'public' && PRIVATE.check(a.address, a.family)) return 'a private network address';
  return null;
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
 * fetch for user-named registries: every host (the first URL's and each redirect's) is resolved
 * and refused when any of its addresses is out of bounds; redirects are followed here, not by fetch.
 * (A name that resolves differently between this check and the connection — DNS rebinding — is not
 * caught; the realistic cases, a literal address or a plain name of an internal host, are.)
 */
export function guardedFetch(network: OutboundNetwork, base: typeof fetch = fetch): typeof fetch {
  if (network === 'any') return base;
  const check = (url: URL) => assertReachable(url, network);
  return (async (input: string | URL | Request, init?: RequestInit) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    for (let hop = 0; ; hop++) {
      await check(url);
      const res = await base(url, { ...init, redirect: 'manual' });
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
