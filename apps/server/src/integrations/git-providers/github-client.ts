import type { GitRepository } from '@gantry/contracts';
import {
  PORTAL_STATE,
  MAX_PAGES,
  filesOfCommits,
  header,
  isZeroSha,
  nextLink,
  parseWebhookJson,
  providerHttp,
  readTokenAnswer,
  repoPath,
  verifySha256Signature,
  withCredentials,
  type GitProviderClient,
} from './git-provider.js';

export interface GithubClientOptions {
  clientId: string;
  clientSecret: string;
  /** Authorize and token host: https://github.com, or a GitHub Enterprise host. */
  oauthUrl: string;
  /** REST API root: https://api.github.com, or https://<host>/api/v3 for GitHub Enterprise. */
  apiUrl: string;
  redirectUri?: string;
}

interface GhRepo {
  id: number;
  full_name: string;
  html_url: string;
  clone_url?: string;
  default_branch?: string;
}

/** GitHub (and GitHub Enterprise) over its REST API v3 and OAuth apps. Scope `repo`. */
export function createGithubClient(o: GithubClientOptions): GitProviderClient {
  const oauth = o.oauthUrl.replace(/\/$/, '');
  const api = o.apiUrl.replace(/\/$/, '');
  const http = providerHttp('github', (token) => ({
    authorization: `Bearer ${token}`,
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
  }));
  const scopes = 'repo';

  async function token(form: Record<string, string>) {
    const res = await http.send(`${oauth}/login/oauth/access_token`, {
      json: { client_id: o.clientId, client_secret: o.clientSecret, ...form },
      headers: { accept: 'application/json' },
    });
    return readTokenAnswer('github', res);
  }

  async function pages<T>(first: string, token: string): Promise<T[]> {
    const out: T[] = [];
    let url: string | undefined = first;
    for (let i = 0; url && i < MAX_PAGES; i++) {
      const { data, res }: { data: T[]; res: Response } = await http.json<T[]>(url, { token });
      out.push(...data);
      url = nextLink(res.headers.get('link'));
    }
    return out;
  }

  return {
    type: 'github',
    scopes,
    authorizeUrl() {
      const q = new URLSearchParams({ client_id: o.clientId, scope: scopes, state: PORTAL_STATE });
      if (o.redirectUri) q.set('redirect_uri', o.redirectUri);
      return `${oauth}/login/oauth/authorize?${q}`;
    },
    exchangeCode: (code, redirectUri = o.redirectUri) => token({ code, ...(redirectUri ? { redirect_uri: redirectUri } : {}) }),
    // Only GitHub Apps with expiring user tokens issue refresh tokens; OAuth app tokens do not expire.
    refresh: (refreshToken) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),

    async currentUser(t) {
      const { data } = await http.json<{ id: number; login: string }>(`${api}/user`, { token: t });
      return { id: String(data.id), name: data.login };
    },

    async listRepositories(t) {
      const repos = await pages<GhRepo>(`${api}/user/repos?per_page=100&sort=full_name`, t);
      return repos.map((r): GitRepository => ({
        id: String(r.id),
        fullName: r.full_name,
        url: r.html_url,
        ...(r.default_branch ? { defaultBranch: r.default_branch } : {}),
      }));
    },

    async listBranches(t, repo) {
      return (await pages<{ name: string }>(`${api}/repos/${repoPath(repo)}/branches?per_page=100`, t)).map((b) => b.name);
    },

    async getCommit(t, repo, ref) {
      const { data } = await http.json<{
        sha: string;
        commit: { message: string; author?: { name?: string } };
        author?: { login?: string; avatar_url?: string } | null;
      }>(`${api}/repos/${repoPath(repo)}/commits/${encodeURIComponent(ref)}`, { token: t });
      return {
        sha: data.sha,
        message: data.commit.message,
        author: data.commit.author?.name ?? data.author?.login ?? '',
        avatar: data.author?.avatar_url ?? null,
      };
    },

    async getFile(t, repo, ref, path) {
      const url = `${api}/repos/${repoPath(repo)}/contents/${path.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/')}?ref=${encodeURIComponent(ref)}`;
      const data = await http.jsonOrNull<{ type?: string; encoding?: string; content?: string } | unknown[]>(url, { token: t });
      if (!data || Array.isArray(data) || data.type !== 'file') return null;
      if (data.encoding === 'base64' && typeof data.content === 'string') return Buffer.from(data.content, 'base64').toString('utf8');
      // Files over 1 MB come without content: ask for the raw media type.
      const res = await http.send(url, { token: t, headers: { accept: 'application/vnd.github.raw+json' } });
      if (res.status === 404) return null;
      if (!res.ok) await http.fail(res);
      return res.text();
    },

    async changedFiles(t, repo, before, after) {
      if (isZeroSha(before)) {
        const { data } = await http.json<{ files?: { filename: string }[] }>(`${api}/repos/${repoPath(repo)}/commits/${encodeURIComponent(after)}`, {
          token: t,
        });
        return (data.files ?? []).map((f) => f.filename);
      }
      const { data } = await http.json<{ files?: { filename: string; previous_filename?: string }[] }>(
        `${api}/repos/${repoPath(repo)}/compare/${encodeURIComponent(before!)}...${encodeURIComponent(after)}`,
        { token: t },
      );
      return [...new Set((data.files ?? []).flatMap((f) => (f.previous_filename ? [f.filename, f.previous_filename] : [f.filename])))];
    },

    async createWebhook(t, repo, url, secret) {
      const { data } = await http.json<{ id: number }>(`${api}/repos/${repoPath(repo)}/hooks`, {
        token: t,
        json: { name: 'web', active: true, events: ['push'], config: { url, content_type: 'json', secret, insecure_ssl: '0' } },
      });
      return String(data.id);
    },

    async deleteWebhook(t, repo, id) {
      await http.ok(`${api}/repos/${repoPath(repo)}/hooks/${encodeURIComponent(id)}`, { token: t, method: 'DELETE', allow404: true });
    },

    cloneUrl: (repoUrl, t) => withCredentials(repoUrl, 'x-access-token', t),

    parsePush(headers, rawBody, secret) {
      verifySha256Signature(header(headers, 'x-hub-signature-256'), secret, rawBody);
      if (header(headers, 'x-github-event') !== 'push') return null;
      const p = parseWebhookJson(rawBody);
      if (!p || typeof p.ref !== 'string' || !p.ref.startsWith('refs/heads/') || p.deleted || isZeroSha(p.after)) return null;
      const commits: any[] = Array.isArray(p.commits) ? p.commits : [];
      const head = p.head_commit ?? commits.find((c) => c.id === p.after) ?? commits.at(-1);
      // GitHub lists at most 20 commits in a push payload.
      const complete = commits.length > 0 && commits.length < 20;
      return {
        branch: p.ref.slice('refs/heads/'.length),
        sha: p.after,
        before: isZeroSha(p.before) ? null : p.before,
        message: head?.message ?? '',
        author: head?.author?.name ?? head?.author?.username ?? p.pusher?.name ?? '',
        changedFiles: filesOfCommits(commits.length ? commits : head ? [head] : []),
        changedFilesComplete: complete,
      };
    },
  };
}
