import { createV2Client } from './v2-client.js';
import { RegistryFailure, type RegistryAdapter, type RegistryTag } from './types.js';

/**
 * Docker Hub: hub.docker.com's API for login (POST /v2/users/login → JWT), the user's repositories and their
 * tags (last_updated, digest); image labels through the registry (registry-1.docker.io, token flow).
 * Images are pushed as docker.io/<username>/<repository>.
 */
export function dockerhubAdapter(c: { apiUrl: string; registryUrl: string; username: string; password: string; fetch?: typeof fetch }): RegistryAdapter {
  const doFetch = c.fetch ?? fetch;
  const api = c.apiUrl.replace(/\/+$/, '');
  const ns = c.username.toLowerCase();
  let jwt: string | undefined;

  async function call(url: string, init: RequestInit = {}): Promise<Response> {
    try {
      return await doFetch(url.startsWith('http') ? url : `${api}${url}`, init);
    } catch (err) {
      throw new RegistryFailure(`Cannot reach Docker Hub: ${(err as Error).message}`);
    }
  }
  async function reason(res: Response) {
    const body = (await res.json().catch(() => ({}))) as { detail?: string; message?: string; errinfo?: unknown };
    return body.detail ?? body.message ?? `HTTP ${res.status}`;
  }
  async function login(): Promise<string> {
    if (jwt) return jwt;
    const res = await call('/v2/users/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: c.username, password: c.password }),
    });
    if (!res.ok) throw new RegistryFailure(await reason(res), res.status);
    const body = (await res.json()) as { token?: string };
    if (!body.token) throw new RegistryFailure('Docker Hub answered no token');
    jwt = body.token;
    return jwt;
  }
  async function pages<T>(first: string, what: string): Promise<T[]> {
    const out: T[] = [];
    const authorization = `Bearer ${await login()}`;
    for (let next: string | null = first; next;) {
      const res = await call(next, { headers: { authorization } });
      if (!res.ok) throw new RegistryFailure(`${what}: ${await reason(res)}`, res.status);
      const body = (await res.json()) as { next?: string | null; results?: T[] };
      out.push(...(body.results ?? []));
      next = body.next ?? null;
    }
    return out;
  }
  const registry = () => createV2Client({ baseUrl: c.registryUrl, username: c.username, password: c.password, fetch: c.fetch });

  return {
    async verify() {
      await login();
    },
    async listRepositories() {
      const repos = await pages<{ name: string }>(`/v2/repositories/${encodeURIComponent(ns)}/?page_size=100`, 'Repositories');
      return repos.map((r) => r.name).sort();
    },
    async listTags(repository) {
      const tags = await pages<{
        name: string;
        last_updated?: string | null;
        tag_last_pushed?: string | null;
        digest?: string | null;
        images?: { digest?: string }[];
      }>(`/v2/repositories/${encodeURIComponent(ns)}/${encodeURIComponent(repository)}/tags?page_size=100`, `Tags of ${repository}`);
      return tags.map((t): RegistryTag => ({
        name: t.name,
        date: t.tag_last_pushed ?? t.last_updated ?? null,
        digest: t.digest ?? t.images?.[0]?.digest ?? null,
      }));
    },
    async labels(repository, tag) {
      return (await registry().describe(`${ns}/${repository}`, tag)).labels ?? {};
    },
    async pushTarget() {
      return { host: 'docker.io', repositoryPrefix: ns, username: c.username, password: c.password, tls: true };
    },
    scan: async () => null,
  };
}
