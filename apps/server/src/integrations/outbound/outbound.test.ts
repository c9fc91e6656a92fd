import { describe, expect, it } from 'vitest';
import { OutboundRefused, guardedFetch, refusedAddress } from './outbound.js';

describe('refusedAddress', () => {
  it.each([
    ['127.0.0.1', 'lan', 'a loopback or link-local address'],
    ['127.8.9.10', 'lan', 'a loopback or link-local address'],
    ['::1', 'lan', 'a loopback or link-local address'],
    ['::ffff:127.0.0.1', 'lan', 'a loopback or link-local address'],
    ['169.254.169.254', 'lan', 'a loopback or link-local address'],
    ['fd00:ec2::254', 'lan', 'a loopback or link-local address'],
    ['0.0.0.0', 'lan', 'a loopback or link-local address'],
    ['10.1.2.3', 'lan', null],
    ['192.168.1.20', 'lan', null],
    ['10.1.2.3', 'public', 'a private network address'],
    ['fd12:3456::1', 'public', 'a private network address'],
    ['93.184.216.34', 'public', null],
    ['2606:4700::1111', 'public', null],
    ['127.0.0.1', 'any', null],
  ] as const)('%s under %s → %s', (address, network, why) => {
    expect(refusedAddress(address, network)).toBe(why);
  });
});

describe('guardedFetch', () => {
  const answering = (responses: Record<string, Response>, seen: { url: string; auth: string | null }[] = []) =>
    (async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input);
      seen.push({ url, auth: new Headers(init?.headers).get('authorization') });
      return responses[url] ?? new Response('{}', { status: 200 });
    }) as typeof fetch;

  it('refuses a loopback literal and a name that resolves to loopback, without fetching', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const f = guardedFetch('lan', answering({}, seen));
    await expect(f('http://127.0.0.1:5000/v2/')).rejects.toThrow(OutboundRefused);
    await expect(f('http://localhost:5000/v2/')).rejects.toThrow(/localhost:5000 is a loopback or link-local address/);
    await expect(f('http://[::1]:5000/v2/')).rejects.toThrow(/loopback/);
    await expect(f('file:///etc/passwd')).rejects.toThrow(/http or https only/);
    expect(seen).toEqual([]);
  });

  it('follows redirects itself: a hop to the metadata address is refused, credentials stay with their origin', async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const f = guardedFetch(
      'lan',
      answering(
        {
          'http://10.0.0.5/v2/': new Response(null, { status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data/' } }),
          'http://10.0.0.5/v2/blob': new Response(null, { status: 302, headers: { location: 'http://10.0.0.6/storage/blob?sig=1' } }),
        },
        seen,
      ),
    );
    await expect(f('http://10.0.0.5/v2/', { headers: { authorization: 'Basic eA==' } })).rejects.toThrow(
      /169\.254\.169\.254 is a loopback or link-local address/,
    );
    const res = await f('http://10.0.0.5/v2/blob', { headers: { authorization: 'Basic eA==' } });
    expect(res.status).toBe(200);
    expect(seen).toEqual([
      { url: 'http://10.0.0.5/v2/', auth: 'Basic eA==' },
      { url: 'http://10.0.0.5/v2/blob', auth: 'Basic eA==' },
      { url: 'http://10.0.0.6/storage/blob?sig=1', auth: null },
    ]);
  });

  it('is plain fetch under any', () => {
    const base = answering({});
    expect(guardedFetch('any', base)).toBe(base);
  });
});
