import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Small stand-ins for the registry APIs that have no local equivalent, in their real JSON shapes (DESIGN §7):
 * Docker Hub's hub.docker.com API and GitLab's container-registry API. Image contents (labels) stay in a real
 * Distribution registry (`startRegistry`), which these can point at.
 */
interface Served {
  url: string;
  requests: { method: string; path: string }[];
  stop(): Promise<void>;
  failNext(status: number, times?: number): void;
}

async function serve(
  handler: (req: http.IncomingMessage, url: URL, body: string) => { status: number; body: unknown; headers?: Record<string, string> },
): Promise<Served> {
  const requests: Served['requests'] = [];
  let fail: { status: number; times: number } | null = null;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => {
      body += d.toString();
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search });
      const out = fail && fail.times-- > 0 ? { status: fail.status, body: { message: `stand-in answers ${fail.status}` } } : handler(req, url, body);
      res.writeHead(out.status, { 'content-type': 'application/json', ...out.headers });
      res.end(JSON.stringify(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    failNext(status, times = 1) {
      fail = { status, times };
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface HubTag {
  name: string;
  digest: string;
  last_updated: string;
}
export interface DockerHubStandin extends Served {
  repositories: Record<string, HubTag[]>;
}

/** hub.docker.com: POST /v2/users/login, /v2/repositories/{ns}/, /v2/repositories/{ns}/{repo}/tags (paged, `next`). */
export async function startDockerHubStandin(o: {
  username: string;
  password: string;
  repositories?: Record<string, HubTag[]>;
  pageSize?: number;
}): Promise<DockerHubStandin> {
  const repositories = o.repositories ?? {};
  const pageSize = o.pageSize ?? 100;
  const jwt = `hub-jwt-${Math.random().toString(36).slice(2)}`;
  let base = '';
  const page = <T>(all: T[], url: URL) => {
    const n = Math.min(Number(url.searchParams.get('page_size') ?? 10), pageSize);
    const p = Number(url.searchParams.get('page') ?? 1);
    const next = p * n < all.length ? new URL(url.pathname + url.search, base) : null;
    next?.searchParams.set('page', String(p + 1));
    return { count: all.length, next: next?.toString() ?? null, previous: null, results: all.slice((p - 1) * n, p * n) };
  };
  const s = await serve((req, url, body) => {
    if (req.method === 'POST' && url.pathname === '/v2/users/login') {
      const b = JSON.parse(body || '{}') as { username?: string; password?: string };
      return b.username === o.username && b.password === o.password
        ? { status: 200, body: { token: jwt } }
        : { status: 401, body: { detail: 'Incorrect authentication credentials.' } };
    }
    if (req.headers.authorization !== `Bearer ${jwt}`) return { status: 401, body: { detail: 'Authentication credentials were not provided.' } };
    const m = /^\/v2\/repositories\/([^/]+)\/(?:([^/]+)\/tags)?\/?$/.exec(url.pathname);
    if (!m || m[1] !== o.username.toLowerCase()) return { status: 404, body: { message: 'object not found', errinfo: {} } };
    if (!m[2]) {
      return {
        status: 200,
        body: page(
          Object.keys(repositories)
            .sort()
            .map((name) => ({
              name,
              namespace: m[1],
              repository_type: 'image',
              status: 1,
              is_private: false,
              star_count: 0,
              pull_count: 3,
              last_updated: '2026-01-01T00:00:00.000000Z',
              date_registered: '2025-01-01T00:00:00.000000Z',
              affiliation: 'owner',
              media_types: ['application/vnd.oci.image.index.v1+json'],
              content_types: ['image'],
            })),
          url,
        ),
      };
    }
    const tags = repositories[decodeURIComponent(m[2])];
    if (!tags) return { status: 404, body: { message: 'httperror 404: object not found', errinfo: {} } };
    return {
      status: 200,
      body: page(
        tags.map((t, i) => ({
          creator: 1,
          id: i + 1,
          images: [{ architecture: 'amd64', os: 'linux', digest: t.digest, size: 1024, status: 'active', last_pulled: null, last_pushed: t.last_updated }],
          last_updated: t.last_updated,
          last_updater: 1,
          last_updater_username: o.username,
          name: t.name,
          repository: 1,
          full_size: 1024,
          v2: true,
          tag_status: 'active',
          tag_last_pulled: null,
          tag_last_pushed: t.last_updated,
          media_type: 'application/vnd.oci.image.index.v1+json',
          content_type: 'image',
          digest: t.digest,
        })),
        url,
      ),
    };
  });
  base = s.url;
  return { ...s, repositories };
}

export interface GitlabRegistryTag {
  name: string;
  digest: string;
  created_at: string;
}
export interface GitlabStandinRepository {
  id: number;
  projectId: number;
  path: string;
  tags: GitlabRegistryTag[];
}
export interface GitlabRegistryStandin extends Served {
  /** GITLAB_URL for Gantry (API under /api/v4). */
  gitlabUrl: string;
}

/**
 * GitLab's API for registries: GET /api/v4/groups/:id and /projects/:id (full path), their
 * /registry/repositories, and /projects/:id/registry/repositories/:rid/tags[/:name]; PRIVATE-TOKEN checked;
 * pages with x-next-page.
 */
export async function startGitlabRegistryStandin(o: {
  token: string;
  groups?: { id: number; fullPath: string }[];
  projects?: { id: number; pathWithNamespace: string; groupId?: number }[];
  repositories: GitlabStandinRepository[];
  pageSize?: number;
}): Promise<GitlabRegistryStandin> {
  const groups = o.groups ?? [];
  const projects = o.projects ?? [];
  const pageSize = o.pageSize ?? 100;
  const paged = <T>(all: T[], url: URL) => {
    const n = Math.min(Number(url.searchParams.get('per_page') ?? 20), pageSize);
    const p = Number(url.searchParams.get('page') ?? 1);
    const more = p * n < all.length;
    return {
      status: 200,
      body: all.slice((p - 1) * n, p * n),
      headers: { 'x-page': String(p), 'x-per-page': String(n), 'x-total': String(all.length), 'x-next-page': more ? String(p + 1) : '' },
    };
  };
  const repoJson = (r: GitlabStandinRepository) => ({
    id: r.id,
    name: r.path
      .split('/')
      .slice(projects.find((p) => p.id === r.projectId)!.pathWithNamespace.split('/').length)
      .join('/'),
    path: r.path,
    project_id: r.projectId,
    location: `registry.example.com/${r.path}`,
    created_at: '2026-01-01T00:00:00.000Z',
    cleanup_policy_started_at: null,
    status: null,
  });
  const byId = (list: { id: number }[], id: string) => list.find((x) => String(x.id) === decodeURIComponent(id));
  const s = await serve((req, url) => {
    if (req.headers['private-token'] !== o.token) return { status: 401, body: { message: '401 Unauthorized' } };
    const parts = url.pathname.replace(/^\/api\/v4\//, '').split('/');
    const [kind, id, ...rest] = parts;
    if (kind === 'groups') {
      const g = byId(groups, id ?? '') as (typeof groups)[number] | undefined;
      if (!g) return { status: 404, body: { message: '404 Group Not Found' } };
      if (!rest.length)
        return {
          status: 200,
          body: {
            id: g.id,
            name: g.fullPath.split('/').pop(),
            path: g.fullPath.split('/').pop(),
            full_path: g.fullPath,
            full_name: g.fullPath,
            visibility: 'private',
          },
        };
      if (rest.join('/') === 'registry/repositories') {
        const ids = new Set(projects.filter((p) => p.groupId === g.id).map((p) => p.id));
        return paged(o.repositories.filter((r) => ids.has(r.projectId)).map(repoJson), url);
      }
    }
    if (kind === 'projects') {
      const p = byId(projects, id ?? '') as (typeof projects)[number] | undefined;
      if (!p) return { status: 404, body: { message: '404 Project Not Found' } };
      if (!rest.length)
        return {
          status: 200,
          body: { id: p.id, path_with_namespace: p.pathWithNamespace, name: p.pathWithNamespace.split('/').pop(), path: p.pathWithNamespace.split('/').pop() },
        };
      if (rest.join('/') === 'registry/repositories') return paged(o.repositories.filter((r) => r.projectId === p.id).map(repoJson), url);
      const [, , rid, t, tag] = rest;
      const repo = o.repositories.find((r) => r.projectId === p.id && String(r.id) === rid);
      if (rest[0] === 'registry' && rest[1] === 'repositories' && repo && t === 'tags') {
        const location = (n: string) => `registry.example.com/${repo.path}:${n}`;
        if (!tag)
          return paged(
            repo.tags.map((x) => ({ name: x.name, path: `${repo.path}:${x.name}`, location: location(x.name) })),
            url,
          );
        const x = repo.tags.find((y) => y.name === decodeURIComponent(tag));
        if (!x) return { status: 404, body: { message: '404 Tag Not Found' } };
        return {
          status: 200,
          body: {
            name: x.name,
            path: `${repo.path}:${x.name}`,
            location: location(x.name),
            revision: x.digest.slice(7),
            short_revision: x.digest.slice(7, 16),
            digest: x.digest,
            created_at: x.created_at,
            total_size: 1024,
          },
        };
      }
    }
    return { status: 404, body: { message: '404 Not Found' } };
  });
  return { ...s, gitlabUrl: s.url };
}
