import { RegistryFailure, type RegistryTag } from './types.js';

/** Manifest media types a tag may point at (OCI and Docker v2 schema 2; an index/list is resolved to one platform). */
export const MEDIA = {
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
} as const;
const ACCEPT = [MEDIA.ociIndex, MEDIA.dockerList, MEDIA.ociManifest, MEDIA.dockerManifest].join(', ');

export interface V2ClientOptions {
  /** http:// or https:// and host[:port], no path. */
  baseUrl: string;
  username?: string;
  password?: string;
  fetch?: typeof fetch;
  /** Catalog page size asked for (default 100; the registry may answer fewer and a `Link` to the next page). */
  pageSize?: number;
}

/** The parameters of a WWW-Authenticate challenge: scheme plus key="value" pairs. */
export function parseChallenge(header: string): { scheme: string; params: Record<string, string> } {
  const scheme = /^\s*(\S+)/.exec(header)?.[1]?.toLowerCase() ?? '';
  return { scheme, params: Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), m[2]!])) };
}

/** The next page of a `Link: </v2/_catalog?last=x&n=100>; rel="next"` header, or null. */
export function nextLink(header: string | null): string | null {
  return header ? (/<([^>]+)>\s*;\s*rel="?next"?/i.exec(header)?.[1] ?? null) : null;
}

/** The registry's own words for a failed call (its JSON `errors`, else the status). */
async function reasonOf(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { errors?: { code?: string; message?: string }[]; details?: string; detail?: string; message?: string };
    const e = body.errors?.[0];
    if (e) return [e.code, e.message].filter(Boolean).join(': ');
    const m = body.details ?? body.detail ?? body.message;
    if (m) return m;
  } catch {
    /* not JSON */
  }
  return `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
}

/**
 * A Docker Registry HTTP API v2 (Distribution) client: answers a `Basic` challenge with the credentials, a
 * `Bearer realm=,service=,scope=` one by fetching a token from the realm (Basic credentials) and retrying.
 * Tokens are cached per scope for the client's life (one request of ours).
 */
export function createV2Client(o: V2ClientOptions) {
  const doFetch = o.fetch ?? fetch;
  const base = o.baseUrl.replace(/\/+$/, '');
  const basic = o.username || o.password ? `Basic ${Buffer.from(`${o.username ?? ''}:${o.password ?? ''}`).toString('base64')}` : undefined;
  const tokens = new Map<string, string>();
  let scheme: 'basic' | 'bearer' | null = null;

  async function token(params: Record<string, string>, scope: string | undefined): Promise<string> {
    if (!params.realm) throw new RegistryFailure('The registry asked for a token without naming its realm');
    const url = new URL(params.realm);
    if (params.service) url.searchParams.set('service', params.service);
    if (scope) url.searchParams.set('scope', scope);
    let res: Response;
    try {
      res = await doFetch(url, { headers: basic ? { authorization: basic } : {} });
    } catch (err) {
      throw new RegistryFailure(`Cannot reach the token service ${url.host}: ${(err as Error).message}`);
    }
    if (!res.ok)
      throw new RegistryFailure(
        `The token service refused the credentials (${await reasonOf(res)})`,
        res.status === 401 || res.status === 403 ? 401 : res.status,
      );
    const body = (await res.json()) as { token?: string; access_token?: string };
    const t = body.token ?? body.access_token;
    if (!t) throw new RegistryFailure('The token service answered no token');
    return t;
  }

  /** GET (or HEAD) a path under base, authenticating as the challenge asks; `scope` is what a token should grant. */
  async function request(path: string, init: { accept?: string; scope?: string } = {}): Promise<Response> {
    const url = path.startsWith('http') ? path : `${base}${path}`;
    const send = async (authorization?: string) => {
      try {
        return await doFetch(url, {
          headers: { ...(init.accept ? { accept: init.accept } : {}), ...(authorization ? { authorization } : {}) },
          redirect: 'follow',
        });
      } catch (err) {
        throw new RegistryFailure(`Cannot reach ${new URL(url).host}: ${(err as Error).message}`);
      }
    };
    const key = init.scope ?? '';
    let res = await send(scheme === 'bearer' ? (tokens.has(key) ? `Bearer ${tokens.get(key)}` : undefined) : scheme === 'basic' ? basic : undefined);
    if (res.status !== 401) return res;
    const { scheme: s, params } = parseChallenge(res.headers.get('www-authenticate') ?? '');
    if (s === 'basic') {
      if (!basic || scheme === 'basic') return res;
      scheme = 'basic';
      return send(basic);
    }
    if (s === 'bearer') {
      scheme = 'bearer';
      const t = await token(params, params.scope ?? init.scope);
      tokens.set(key, t);
      res = await send(`Bearer ${t}`);
    }
    return res;
  }

  async function ok(res: Response, what: string): Promise<Response> {
    if (res.ok) return res;
    throw new RegistryFailure(`${what}: ${await reasonOf(res)}`, res.status);
  }

  const pull = (repository: string) => `repository:${repository}:pull`;

  async function manifest(
    repository: string,
    reference: string,
  ): Promise<{
    digest: string | null;
    body: {
      mediaType?: string;
      config?: { digest: string };
      manifests?: { digest: string; mediaType?: string; platform?: { os?: string; architecture?: string } }[];
    };
  }> {
    const res = await ok(
      await request(`/v2/${repository}/manifests/${encodeURIComponent(reference)}`, { accept: ACCEPT, scope: pull(repository) }),
      `Manifest ${repository}:${reference}`,
    );
    const digest = res.headers.get('docker-content-digest');
    const body = (await res.json()) as Awaited<ReturnType<typeof manifest>>['body'];
    return { digest, body: { ...body, mediaType: body.mediaType ?? res.headers.get('content-type') ?? undefined } };
  }

  return {
    request,
    /** Succeeds when GET /v2/ answers 200 with the credentials. */
    async ping(): Promise<void> {
      const res = await request('/v2/');
      if (res.status === 401 || res.status === 403) throw new RegistryFailure(`authentication failed (${await reasonOf(res)})`, 401);
      await ok(res, 'GET /v2/');
    },
    /** Every repository of /v2/_catalog, following `Link` pages. */
    async catalog(): Promise<string[]> {
      const names: string[] = [];
      for (let next: string | null = `/v2/_catalog?n=${o.pageSize ?? 100}`; next;) {
        const res = await ok(await request(next, { scope: 'registry:catalog:*' }), 'Repository catalog');
        names.push(...(((await res.json()) as { repositories?: string[] | null }).repositories ?? []));
        const link = nextLink(res.headers.get('link'));
        next = link ? (link.startsWith('http') ? link : `${base}${link.startsWith('/') ? '' : '/'}${link}`) : null;
      }
      return names;
    },
    async tags(repository: string): Promise<string[]> {
      const names: string[] = [];
      for (let next: string | null = `/v2/${repository}/tags/list?n=1000`; next;) {
        const res = await ok(await request(next, { scope: pull(repository) }), `Tags of ${repository}`);
        names.push(...(((await res.json()) as { tags?: string[] | null }).tags ?? []));
        const link = nextLink(res.headers.get('link'));
        next = link ? (link.startsWith('http') ? link : `${base}${link.startsWith('/') ? '' : '/'}${link}`) : null;
      }
      return names;
    },
    /** A tag's digest (of what the tag names, an index included), its image's `created` and config labels. */
    async describe(repository: string, tag: string): Promise<RegistryTag> {
      const top = await manifest(repository, tag);
      let image = top.body;
      if (image.manifests) {
        const entry = image.manifests.find((m) => m.platform?.os === 'linux' && m.platform.architecture === 'amd64') ?? image.manifests[0];
        if (!entry) return { name: tag, date: null, digest: top.digest, labels: {} };
        image = (await manifest(repository, entry.digest)).body;
      }
      if (!image.config?.digest) return { name: tag, date: null, digest: top.digest, labels: {} };
      const res = await ok(
        await request(`/v2/${repository}/blobs/${image.config.digest}`, { scope: pull(repository) }),
        `Image config of ${repository}:${tag}`,
      );
      const config = (await res.json()) as { created?: string; config?: { Labels?: Record<string, string> | null } };
      return { name: tag, date: config.created ?? null, digest: top.digest, labels: config.config?.Labels ?? {} };
    },
  };
}
export type V2Client = ReturnType<typeof createV2Client>;
