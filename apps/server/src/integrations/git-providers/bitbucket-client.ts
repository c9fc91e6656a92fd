import type { GitRepository } from '@gantry/contracts';
import {
  PORTAL_STATE,
  MAX_PAGES,
  header,
  isZeroSha,
  looksLikeSha,
  parseWebhookJson,
  providerHttp,
  readTokenAnswer,
  repoPath,
  verifySha256Signature,
  withCredentials,
  type GitProviderClient,
} from './git-provider.js';

export interface BitbucketClientOptions {
  clientId: string;
  clientSecret: string;
  /** Authorize and token host: https://bitbucket.org. */
  oauthUrl: string;
  /** REST API root: https://api.bitbucket.org/2.0. */
  apiUrl: string;
  redirectUri?: string;
}

interface BbRepo {
  uuid: string;
  full_name: string;
  links: { html: { href: string } };
  mainbranch?: { name: string } | null;
}
interface BbCommit {
  hash: string;
  message: string;
  author?: { raw?: string; user?: { display_name?: string; links?: { avatar?: { href?: string } } } };
}
interface BbPage<T> {
  values: T[];
  next?: string;
}

/** "Ada Lovelace <ada@example.com>" → "Ada Lovelace". */
const nameOfRaw = (raw = '') => raw.replace(/\s*<[^>]*>\s*$/, '').trim() || raw;

/**
 * Bitbucket Cloud over REST API 2.0 and its OAuth 2 consumers.
 *
 * Scopes: Bitbucket takes a consumer's scopes from its settings, not from the authorize URL; give the
 * consumer Account: Read, Repositories: Read and Webhooks: Read and write. The authorize URL still names
 * `repository account webhook` so the request says what it needs.
 * Webhooks: Bitbucket Cloud signs deliveries of a hook that has a `secret` with HMAC-SHA256 in
 * `X-Hub-Signature: sha256=<hex>` (like GitHub), which is what `parsePush` verifies.
 */
export function createBitbucketClient(o: BitbucketClientOptions): GitProviderClient {
  const oauth = o.oauthUrl.replace(/\/$/, '');
  const api = o.apiUrl.replace(/\/$/, '');
  const http = providerHttp('bitbucket', (token) => ({ authorization: `Bearer ${token}` }));
  const scopes = 'repository account webhook';
  const repository = (repo: string) => `${api}/repositories/${repoPath(repo)}`;

  async function token(form: Record<string, string>) {
    const res = await http.send(`${oauth}/site/oauth2/access_token`, {
      form,
      headers: { accept: 'application/json', authorization: `Basic ${Buffer.from(`${o.clientId}:${o.clientSecret}`).toString('base64')}` },
    });
    return readTokenAnswer('bitbucket', res);
  }

  async function pages<T>(first: string, token: string): Promise<T[]> {
    const out: T[] = [];
    let url: string | undefined = first;
    for (let i = 0; url && i < MAX_PAGES; i++) {
      const { data }: { data: BbPage<T> } = await http.json<BbPage<T>>(url, { token });
      out.push(...data.values);
      url = data.next;
    }
    return out;
  }

  const toCommit = (c: BbCommit) => ({
    sha: c.hash,
    message: c.message.replace(/\n+$/, ''),
    author: c.author?.user?.display_name ?? nameOfRaw(c.author?.raw),
    avatar: c.author?.user?.links?.avatar?.href ?? null,
  });

  return {
    type: 'bitbucket',
    scopes,
    authorizeUrl() {
      const q = new URLSearchParams({ client_id: o.clientId, response_type: 'code', state: PORTAL_STATE, scope: scopes });
      if (o.redirectUri) q.set('redirect_uri', o.redirectUri);
      return `${oauth}/site/oauth2/authorize?${q}`;
    },
    exchangeCode: (code, redirectUri = o.redirectUri) =>
      token({ grant_type: 'authorization_code', code, ...(redirectUri ? { redirect_uri: redirectUri } : {}) }),
    refresh: (refreshToken) => token({ grant_type: 'refresh_token', refresh_token: refreshToken }),

    async currentUser(t) {
      const { data } = await http.json<{ uuid: string; username?: string; nickname?: string; display_name?: string }>(`${api}/user`, { token: t });
      return { id: data.uuid, name: data.username ?? data.nickname ?? data.display_name ?? data.uuid };
    },

    async listRepositories(t) {
      const repos = await pages<BbRepo>(`${api}/repositories?role=member&pagelen=100&sort=full_name`, t);
      return repos.map((r): GitRepository => ({
        id: r.uuid,
        fullName: r.full_name,
        url: r.links.html.href,
        ...(r.mainbranch?.name ? { defaultBranch: r.mainbranch.name } : {}),
      }));
    },

    async listBranches(t, repo) {
      return (await pages<{ name: string }>(`${repository(repo)}/refs/branches?pagelen=100`, t)).map((b) => b.name);
    },

    async getCommit(t, repo, ref) {
      if (looksLikeSha(ref)) {
        const c = await http.jsonOrNull<BbCommit>(`${repository(repo)}/commit/${encodeURIComponent(ref)}`, { token: t });
        if (c) return toCommit(c);
      }
      const { data } = await http.json<{ target: BbCommit }>(`${repository(repo)}/refs/branches/${encodeURIComponent(ref)}`, { token: t });
      return toCommit(data.target);
    },

    async getFile(t, repo, ref, path) {
      const file = path.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
      const res = await http.send(`${repository(repo)}/src/${encodeURIComponent(ref)}/${file}`, { token: t });
      if (res.status === 404) return null;
      if (!res.ok) await http.fail(res);
      return res.text();
    },

    async changedFiles(t, repo, before, after) {
      // Bitbucket's push payload names no files; its diffstat does. The spec is "<new>..<old>".
      const spec = isZeroSha(before) ? encodeURIComponent(after) : `${encodeURIComponent(after)}..${encodeURIComponent(before!)}`;
      const stats = await pages<{ new?: { path: string } | null; old?: { path: string } | null }>(`${repository(repo)}/diffstat/${spec}?pagelen=500`, t);
      return [...new Set(stats.flatMap((s) => [s.new?.path, s.old?.path].filter((p): p is string => !!p)))];
    },

    async createWebhook(t, repo, url, secret) {
      const { data } = await http.json<{ uuid: string }>(`${repository(repo)}/hooks`, {
        token: t,
        json: { description: 'Gantry pipelines', url, active: true, secret, events: ['repo:push'] },
      });
      return data.uuid;
    },

    async deleteWebhook(t, repo, id) {
      await http.ok(`${repository(repo)}/hooks/${encodeURIComponent(id)}`, { token: t, method: 'DELETE', allow404: true });
    },

    cloneUrl: (repoUrl, t) => withCredentials(repoUrl, 'x-token-auth', t),

    parsePush(headers, rawBody, secret) {
      verifySha256Signature(header(headers, 'x-hub-signature'), secret, rawBody);
      if (header(headers, 'x-event-key') !== 'repo:push') return null;
      const p = parseWebhookJson(rawBody);
      const changes: any[] = Array.isArray(p?.push?.changes) ? p.push.changes : [];
      const change = changes.filter((c) => c?.new?.type === 'branch' && c.new.target?.hash).at(-1);
      if (!change) return null;
      const target: BbCommit = change.new.target;
      const { message, author } = toCommit(target);
      return {
        branch: change.new.name,
        sha: target.hash,
        before: change.old?.target?.hash ?? null,
        message,
        author,
        changedFiles: [],
        changedFilesComplete: false,
      };
    },
  };
}
