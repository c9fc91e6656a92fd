import { parseRegistryUrl } from '@gantry/contracts';
import pMap from 'p-map';
import { createV2Client } from './v2-client.js';
import { RegistryFailure, type RegistryAdapter, type RegistryTag } from './types.js';

interface GitlabRepository {
  id: number;
  name: string;
  path: string;
  project_id: number;
  location?: string;
}

/**
 * GitLab's container registry of a group or a project: the REST API (`{gitlabUrl}/api/v4`, PRIVATE-TOKEN) lists
 * repositories and tags (tag detail for created_at and digest); labels come from the registry itself (registry_url,
 * token flow with the token name and value). Images are pushed as <registry>/<group or project full path>/<repository>.
 */
export function gitlabAdapter(c: {
  gitlabUrl: string;
  registryUrl: string;
  hierarchy: 'groups' | 'projects';
  id: string;
  username: string;
  password: string;
  fetch?: typeof fetch;
  registryFetch?: typeof fetch;
}): RegistryAdapter {
  const doFetch = c.fetch ?? fetch;
  const api = `${c.gitlabUrl.replace(/\/+$/, '')}/api/v4`;
  const owner = `/${c.hierarchy}/${encodeURIComponent(c.id)}`;
  const { tls, host } = parseRegistryUrl(c.registryUrl);
  let fullPath: string | undefined;

  async function get<T>(path: string, what: string): Promise<{ body: T; res: Response }> {
    let res: Response;
    try {
      res = await doFetch(path.startsWith('http') ? path : `${api}${path}`, { headers: { 'private-token': c.password } });
    } catch (err) {
      throw new RegistryFailure(`Cannot reach GitLab: ${(err as Error).message}`);
    }
    if (!res.ok) {
      const body = (await res.json().catch(() => ({}))) as { message?: unknown; error?: string; error_description?: string };
      const m =
        body.error_description ??
        (typeof body.message === 'string' ? body.message : body.message ? JSON.stringify(body.message) : undefined) ??
        body.error ??
        `HTTP ${res.status}`;
      throw new RegistryFailure(`${what}: ${m}`, res.status);
    }
    return { body: (await res.json()) as T, res };
  }
  async function all<T>(path: string, what: string): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; page < 1000; page++) {
      const { body, res } = await get<T[]>(`${path}${path.includes('?') ? '&' : '?'}per_page=100&page=${page}`, what);
      out.push(...body);
      const next = res.headers.get('x-next-page');
      if (!next || body.length === 0) break;
    }
    return out;
  }
  async function prefix(): Promise<string> {
    if (fullPath === undefined) {
      const { body } = await get<{ full_path?: string; path_with_namespace?: string }>(
        owner,
        `GitLab ${c.hierarchy === 'groups' ? 'group' : 'project'} ${c.id}`,
      );
      fullPath = (body.full_path ?? body.path_with_namespace ?? '').toLowerCase();
    }
    return fullPath;
  }
  /** A repository's name under the prefix; the image at the project's root keeps its full path (a name cannot be empty). */
  const relative = (p: string, pre: string) => (p.toLowerCase() === pre ? p : p.toLowerCase().startsWith(`${pre}/`) ? p.slice(pre.length + 1) : p);
  async function repositories(): Promise<GitlabRepository[]> {
    return all<GitlabRepository>(`${owner}/registry/repositories`, 'Registry repositories');
  }
  async function find(repository: string): Promise<GitlabRepository> {
    const pre = await prefix();
    const repo = (await repositories()).find((r) => relative(r.path, pre) === repository || r.path === repository);
    if (!repo) throw new RegistryFailure(`Repository ${repository} not found`, 404);
    return repo;
  }

  return {
    async verify() {
      await prefix();
    },
    async listRepositories() {
      const pre = await prefix();
      return (await repositories()).map((r) => relative(r.path, pre)).sort();
    },
    async listTags(repository) {
      const repo = await find(repository);
      const base = `/projects/${repo.project_id}/registry/repositories/${repo.id}/tags`;
      const tags = await all<{ name: string }>(base, `Tags of ${repository}`);
      return pMap(
        tags,
        async (t): Promise<RegistryTag> => {
          const { body } = await get<{ name: string; digest?: string | null; created_at?: string | null }>(
            `${base}/${encodeURIComponent(t.name)}`,
            `Tag ${repository}:${t.name}`,
          );
          return { name: t.name, date: body.created_at ?? null, digest: body.digest ?? null };
        },
        { concurrency: 8 },
      );
    },
    async labels(repository, tag) {
      const repo = await find(repository);
      const client = createV2Client({
        baseUrl: `${tls ? 'https' : 'http'}://${host}`,
        username: c.username,
        password: c.password,
        fetch: c.registryFetch ?? c.fetch,
      });
      return (await client.describe(repo.path, tag)).labels ?? {};
    },
    async pushTarget() {
      return { host, repositoryPrefix: await prefix(), username: c.username, password: c.password, tls };
    },
    scan: async () => null,
  };
}
