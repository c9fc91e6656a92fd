import type { GitRepository } from '@gantry/contracts';
import {
  InvalidSignature,
  PORTAL_STATE,
  MAX_PAGES,
  filesOfCommits,
  header,
  isZeroSha,
  nextLink,
  parseWebhookJson,
  providerHttp,
  readTokenAnswer,
  timingSafeEqualText,
  withCredentials,
  type GitProviderClient,
} from './git-provider.js';

export interface GitlabClientOptions {
  clientId: string;
  clientSecret: string;
  /** The instance: https://gitlab.com or a self-managed host; the API is under /api/v4. */
  url: string;
  /** GitLab requires it on authorize, code exchange and refresh, identical to a registered one. */
  redirectUri?: string;
}

interface GlProject {
  id: number;
  path_with_namespace: string;
  web_url: string;
  http_url_to_repo?: string;
  default_branch?: string | null;
}

/** GitLab (gitlab.com or self-managed) over REST API v4 and its OAuth 2 provider. Scopes `read_repository api read_user`. */
export function createGitlabClient(o: GitlabClientOptions): GitProviderClient {
  const base = o.url.replace(/\/$/, '');
  const api = `${base}/api/v4`;
  const http = providerHttp('gitlab', (token) => ({ authorization: `Bearer ${token}` }));
  const scopes = 'read_repository api read_user';
  /** Projects are addressed by their URL-encoded path_with_namespace. */
  const project = (repo: string) => `${api}/projects/${encodeURIComponent(repo)}`;

  async function token(form: Record<string, string>) {
    const res = await http.send(`${base}/oauth/token`, {
      json: { client_id: o.clientId, client_secret: o.clientSecret, ...form },
      headers: { accept: 'application/json' },
    });
    return readTokenAnswer('gitlab', res);
  }

  async function pages<T>(first: string, token: string): Promise<T[]> {
    const out: T[] = [];
    let url: string | undefined = first;
    for (let i = 0; url && i < MAX_PAGES; i++) {
      const { data, res }: { data: T[]; res: Response } = await http.json<T[]>(url, { token });
      out.push(...data);
      const next = nextLink(res.headers.get('link'));
      const nextPage = res.headers.get('x-next-page');
      if (next) url = next;
      else if (nextPage) {
        const u: URL = new URL(url);
        u.searchParams.set('page', nextPage);
        url = u.toString();
      } else url = undefined;
    }
    return out;
  }

  return {
    type: 'gitlab',
    scopes,
    authorizeUrl() {
      const q = new URLSearchParams({ client_id: o.clientId, response_type: 'code', state: PORTAL_STATE, scope: scopes });
      if (o.redirectUri) q.set('redirect_uri', o.redirectUri);
      return `${base}/oauth/authorize?${q}`;
    },
    exchangeCode: (code, redirectUri = o.redirectUri) =>
      token({ code, grant_type: 'authorization_code', ...(redirectUri ? { redirect_uri: redirectUri } : {}) }),
    refresh: (refreshToken) => token({ refresh_token: refreshToken, grant_type: 'refresh_token', ...(o.redirectUri ? { redirect_uri: o.redirectUri } : {}) }),

    async currentUser(t) {
      const { data } = await http.json<{ id: number; username: string }>(`${api}/user`, { token: t });
      return { id: String(data.id), name: data.username };
    },

    async listRepositories(t) {
      const projects = await pages<GlProject>(`${api}/projects?membership=true&simple=true&per_page=100&order_by=path&sort=asc`, t);
      return projects.map((p): GitRepository => ({
        id: String(p.id),
        fullName: p.path_with_namespace,
        url: p.web_url,
        ...(p.default_branch ? { defaultBranch: p.default_branch } : {}),
      }));
    },

    async listBranches(t, repo) {
      return (await pages<{ name: string }>(`${project(repo)}/repository/branches?per_page=100`, t)).map((b) => b.name);
    },

    async getCommit(t, repo, ref) {
      const { data } = await http.json<{ id: string; message: string; author_name: string }>(`${project(repo)}/repository/commits/${encodeURIComponent(ref)}`, {
        token: t,
      });
      return { sha: data.id, message: data.message, author: data.author_name, avatar: null };
    },

    async getFile(t, repo, ref, path) {
      const file = encodeURIComponent(path.replace(/^\/+/, ''));
      const res = await http.send(`${project(repo)}/repository/files/${file}/raw?ref=${encodeURIComponent(ref)}`, { token: t });
      if (res.status === 404) return null;
      if (!res.ok) await http.fail(res);
      return res.text();
    },

    async changedFiles(t, repo, before, after) {
      type Diff = { old_path: string; new_path: string };
      if (isZeroSha(before)) {
        const diffs = await pages<Diff>(`${project(repo)}/repository/commits/${encodeURIComponent(after)}/diff?per_page=100`, t);
        return [...new Set(diffs.flatMap((d) => [d.new_path, d.old_path]))];
      }
      const { data } = await http.json<{ diffs: Diff[] }>(
        `${project(repo)}/repository/compare?from=${encodeURIComponent(before!)}&to=${encodeURIComponent(after)}`,
        { token: t },
      );
      return [...new Set(data.diffs.flatMap((d) => [d.new_path, d.old_path]))];
    },

    async createWebhook(t, repo, url, secret) {
      const { data } = await http.json<{ id: number }>(`${project(repo)}/hooks`, {
        token: t,
        json: { url, token: secret, push_events: true, tag_push_events: false, merge_requests_events: false, enable_ssl_verification: true },
      });
      return String(data.id);
    },

    async deleteWebhook(t, repo, id) {
      await http.ok(`${project(repo)}/hooks/${encodeURIComponent(id)}`, { token: t, method: 'DELETE', allow404: true });
    },

    cloneUrl: (repoUrl, t) => withCredentials(repoUrl, 'oauth2', t),

    parsePush(headers, rawBody, secret) {
      const given = header(headers, 'x-gitlab-token');
      if (!given || !secret || !timingSafeEqualText(given, secret)) throw new InvalidSignature('Webhook token does not match');
      const p = parseWebhookJson(rawBody);
      const event = header(headers, 'x-gitlab-event');
      if (!p || (event ? event !== 'Push Hook' : p.object_kind !== 'push') || p.object_kind !== 'push') return null;
      if (typeof p.ref !== 'string' || !p.ref.startsWith('refs/heads/') || isZeroSha(p.after)) return null;
      const commits: any[] = Array.isArray(p.commits) ? p.commits : [];
      const head = commits.find((c) => c.id === (p.checkout_sha ?? p.after)) ?? commits.at(-1);
      // GitLab lists at most 20 commits; total_commits_count tells the real number.
      const complete = commits.length > 0 && Number(p.total_commits_count ?? commits.length) === commits.length;
      return {
        branch: p.ref.slice('refs/heads/'.length),
        sha: p.checkout_sha ?? p.after,
        before: isZeroSha(p.before) ? null : p.before,
        message: head?.message ?? '',
        author: head?.author?.name ?? p.user_name ?? '',
        changedFiles: filesOfCommits(commits),
        changedFilesComplete: complete,
      };
    },
  };
}
