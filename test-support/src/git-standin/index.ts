import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createRepoStore, serveGit, type CommitData, type FileChange } from './git-repos.js';

/**
 * A local stand-in for GitHub, GitLab and Bitbucket Cloud (DESIGN §7): their OAuth and REST wire formats for
 * what Gantry calls, real git repositories served over smart HTTP by `git http-backend`, and push webhooks
 * delivered in each provider's payload shape and signature. Loopback only.
 *
 * One server hosts all three, each under its own prefix (GitHub Enterprise style paths for GitHub):
 *   GitHub     GITHUB_OAUTH_URL=<url>/github     GITHUB_API_URL=<url>/github/api/v3
 *   GitLab     GITLAB_URL=<url>/gitlab            (API under /api/v4)
 *   Bitbucket  BITBUCKET_OAUTH_URL=<url>/bitbucket  BITBUCKET_API_URL=<url>/bitbucket/2.0
 * Every repository is visible through every provider (<url>/<provider>/<owner>/<name>[.git]); clone and push
 * need Basic auth whose password is an access token the stand-in issued for that provider.
 */

export type StandinProvider = 'github' | 'gitlab' | 'bitbucket';
export const STANDIN_PROVIDERS: readonly StandinProvider[] = ['github', 'gitlab', 'bitbucket'];

export interface GitStandinOptions {
  /** The loopback port to listen on (default: any free one). */
  port?: number;
  /** Providers served (default all three). */
  providers?: StandinProvider[];
  /** The most items one page answers, whatever the caller asks (default 100); small values exercise pagination. */
  pageSize?: number;
  /** Lifetime of GitLab and Bitbucket access tokens in seconds (default 7200, as theirs). GitHub tokens do not expire. */
  tokenTtlSeconds?: number;
  /** The user the authorize page signs in as (default 'dev'); `?login=` on the authorize URL picks another. */
  defaultLogin?: string;
  /** Where the authorize page sends the browser when the request names no redirect_uri. */
  callbackUrl?: string;
  /** OAuth client credentials per provider (default standin-<provider>-client / standin-<provider>-secret). */
  clients?: Partial<Record<StandinProvider, { clientId: string; clientSecret: string }>>;
  /**
   * How webhooks are delivered. Default: an HTTP POST, only to loopback hosts (others are recorded as skipped).
   * Tests can hand deliveries to an in-process app instead (e.g. Fastify's inject).
   */
  deliver?: (d: { url: string; headers: Record<string, string>; body: string }) => Promise<{ status: number }>;
}

export interface StandinUser {
  provider: StandinProvider;
  login: string;
  id: number;
  uuid: string;
  name: string;
  email: string;
  avatarUrl: string;
}
export interface IssuedToken {
  provider: StandinProvider;
  kind: 'access' | 'refresh';
  token: string;
  login: string;
  expiresAt: number | null;
  revoked: boolean;
}
export interface StandinHook {
  id: string;
  provider: StandinProvider;
  repo: string;
  url: string;
  secret: string;
  events: string[];
  active: boolean;
  createdAt: string;
}
export interface StandinDelivery {
  hookId: string;
  provider: StandinProvider;
  repo: string;
  event: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number | null;
  error?: string;
}

export interface GitStandin {
  url: string;
  /** Gantry's environment for the served providers (client ids and secrets, OAuth and API URLs). */
  env: Record<string, string>;
  github: { oauthUrl: string; apiUrl: string; clientId: string; clientSecret: string };
  gitlab: { url: string; clientId: string; clientSecret: string };
  bitbucket: { oauthUrl: string; apiUrl: string; clientId: string; clientSecret: string };
  /** Creates a bare repository with an initial commit of `files` on `branch` (its default branch). */
  createRepo(
    fullName: string,
    files: Record<string, string>,
    branch?: string,
  ): Promise<{ cloneUrl: string; urls: Record<StandinProvider, string>; path: string; sha: string }>;
  /** Commits files (null deletes one) with the git CLI and delivers the push webhook to the repo's hooks; answers the sha. */
  commit(
    fullName: string,
    files: Record<string, string | null>,
    message: string,
    branch?: string,
    o?: { author?: { name: string; email: string } },
  ): Promise<string>;
  /** An authorization code as the authorize page would issue it (for tests without a browser). */
  issueCode(provider: StandinProvider, o?: { login?: string; redirectUri?: string }): string;
  /** An access token straight away (a personal access token, in effect). */
  issueToken(provider: StandinProvider, login?: string): string;
  /** Makes every access token (of one provider) expired, so a refresh is needed. */
  expireAccessTokens(provider?: StandinProvider): void;
  user(provider: StandinProvider, login?: string): StandinUser;
  readonly hooks: readonly StandinHook[];
  readonly deliveries: readonly StandinDelivery[];
  readonly issuedTokens: readonly IssuedToken[];
  /** Waits for deliveries in flight (GitHub's ping after a hook is created). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
  }
}

const rand = (bytes = 20) => crypto.randomBytes(bytes).toString('hex');
const braces = (uuid: string) => `{${uuid}}`;
const isLoopback = (u: string) => {
  try {
    const h = new URL(u).hostname.replace(/^\[|\]$/g, '');
    return h === 'localhost' || h === '::1' || /^127\./.test(h);
  } catch {
    return false;
  }
};

export async function startGitStandin(options: GitStandinOptions = {}): Promise<GitStandin> {
  const served = new Set(options.providers ?? STANDIN_PROVIDERS);
  const maxPage = Math.max(1, options.pageSize ?? 100);
  const ttl = options.tokenTtlSeconds ?? 7200;
  const defaultLogin = options.defaultLogin ?? 'dev';
  const clients: Record<StandinProvider, { clientId: string; clientSecret: string }> = {
    github: options.clients?.github ?? { clientId: 'standin-github-client', clientSecret: 'standin-github-secret' },
    gitlab: options.clients?.gitlab ?? { clientId: 'standin-gitlab-client', clientSecret: 'standin-gitlab-secret' },
    bitbucket: options.clients?.bitbucket ?? { clientId: 'standin-bitbucket-client', clientSecret: 'standin-bitbucket-secret' },
  };

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-standin-'));
  const repos = createRepoStore(root);
  const repoMeta = new Map<string, { id: number; uuid: string; createdAt: string }>();
  const users = new Map<string, StandinUser>();
  const codes = new Map<string, { provider: StandinProvider; login: string; redirectUri?: string; expiresAt: number }>();
  const tokens = new Map<string, IssuedToken>();
  const hooks: StandinHook[] = [];
  const deliveries: StandinDelivery[] = [];
  const pending = new Set<Promise<unknown>>();
  let nextId = 1000;
  let base = '';

  // ── users, codes and tokens ─────────────────────────────────────────────────────────────────────
  function user(provider: StandinProvider, login = defaultLogin): StandinUser {
    const key = `${provider}:${login}`;
    let u = users.get(key);
    if (!u) {
      u = {
        provider,
        login,
        id: ++nextId,
        uuid: crypto.randomUUID(),
        name: login.replace(/(^|[-_.])(\w)/g, (_, s: string, c: string) => `${s ? ' ' : ''}${c.toUpperCase()}`).trim(),
        email: `${login}@${provider}.standin.test`,
        avatarUrl: `${base}/${provider}/avatars/${encodeURIComponent(login)}.png`,
      };
      users.set(key, u);
    }
    return u;
  }
  const userByEmail = (provider: StandinProvider, email: string) => [...users.values()].find((u) => u.provider === provider && u.email === email);

  function issueCode(provider: StandinProvider, o: { login?: string; redirectUri?: string } = {}) {
    const code = rand(10);
    codes.set(code, { provider, login: o.login ?? defaultLogin, redirectUri: o.redirectUri, expiresAt: Date.now() + 10 * 60_000 });
    user(provider, o.login ?? defaultLogin);
    return code;
  }
  function issue(provider: StandinProvider, kind: IssuedToken['kind'], login: string): IssuedToken {
    const prefix = provider === 'github' ? (kind === 'access' ? 'gho_' : 'ghr_') : provider === 'gitlab' ? '' : '';
    const t: IssuedToken = {
      provider,
      kind,
      token: prefix + rand(),
      login,
      expiresAt: kind === 'access' && provider !== 'github' ? Date.now() + ttl * 1000 : null,
      revoked: false,
    };
    tokens.set(t.token, t);
    return t;
  }
  const validAccess = (provider: StandinProvider, token: string | undefined) => {
    const t = token ? tokens.get(token) : undefined;
    return t && t.provider === provider && t.kind === 'access' && !t.revoked && (t.expiresAt === null || t.expiresAt > Date.now()) ? t : undefined;
  };

  // ── request helpers ─────────────────────────────────────────────────────────────────────────────
  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req as AsyncIterable<Buffer>) {
      size += c.length;
      if (size > 10 * 1024 * 1024) throw new HttpError(413, { message: 'Body too large' });
      chunks.push(c);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
  async function params(req: IncomingMessage, query: URLSearchParams): Promise<Record<string, any>> {
    const text = req.method === 'GET' || req.method === 'DELETE' ? '' : await readBody(req);
    const out: Record<string, any> = Object.fromEntries(query);
    if (!text) return out;
    if ((req.headers['content-type'] ?? '').includes('json')) {
      try {
        return { ...out, ...JSON.parse(text) };
      } catch {
        throw new HttpError(400, { message: 'Problems parsing JSON' });
      }
    }
    return { ...out, ...Object.fromEntries(new URLSearchParams(text)) };
  }
  function bearer(req: IncomingMessage): string | undefined {
    const a = req.headers.authorization ?? '';
    const m = a.match(/^(?:Bearer|token)\s+(.+)$/i);
    if (m) return m[1]!.trim();
    const pt = req.headers['private-token'];
    return typeof pt === 'string' ? pt : undefined;
  }
  function basic(req: IncomingMessage): { user: string; password: string } | undefined {
    const m = (req.headers.authorization ?? '').match(/^Basic\s+(.+)$/i);
    if (!m) return undefined;
    const text = Buffer.from(m[1]!, 'base64').toString('utf8');
    const i = text.indexOf(':');
    return i < 0 ? undefined : { user: text.slice(0, i), password: text.slice(i + 1) };
  }
  function requireToken(provider: StandinProvider, req: IncomingMessage): IssuedToken {
    const t = validAccess(provider, bearer(req));
    if (t) return t;
    if (provider === 'github') throw new HttpError(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
    if (provider === 'gitlab') throw new HttpError(401, { message: '401 Unauthorized' });
    throw new HttpError(401, { type: 'error', error: { message: 'Access token expired or invalid.' } });
  }
  function repoOr404(provider: StandinProvider, fullName: string) {
    if (repos.exists(fullName)) return fullName;
    if (provider === 'github') throw new HttpError(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
    if (provider === 'gitlab') throw new HttpError(404, { message: '404 Project Not Found' });
    throw new HttpError(404, { type: 'error', error: { message: `Repository ${fullName} not found` } });
  }
  const notFound = (provider: StandinProvider, what = 'Not Found'): never => {
    if (provider === 'github') throw new HttpError(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
    if (provider === 'gitlab') throw new HttpError(404, { message: `404 ${what}` });
    throw new HttpError(404, { type: 'error', error: { message: what } });
  };
  /** Slices a list by page and page size, capped at the stand-in's page size. */
  function paginate<T>(items: T[], query: URLSearchParams, sizeParam: string, defaultSize: number) {
    const perPage = Math.min(maxPage, Math.max(1, Number(query.get(sizeParam)) || defaultSize));
    const page = Math.max(1, Number(query.get('page')) || 1);
    const pages = Math.max(1, Math.ceil(items.length / perPage));
    return { values: items.slice((page - 1) * perPage, page * perPage), page, perPage, pages, total: items.length, hasNext: page < pages };
  }
  const pageUrl = (reqUrl: URL, page: number, sizeParam: string, perPage: number) => {
    const u = new URL(reqUrl.toString());
    u.searchParams.set('page', String(page));
    u.searchParams.set(sizeParam, String(perPage));
    return u.toString();
  };
  function redirectBack(res: ServerResponse, redirectUri: string | undefined, q: Record<string, string>) {
    const target = redirectUri ?? options.callbackUrl;
    if (!target) throw new HttpError(400, 'redirect_uri is required');
    const u = new URL(target);
    for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
    res.writeHead(302, { location: u.toString(), 'content-type': 'text/html' });
    res.end(`<a href="${u.toString().replace(/"/g, '&quot;')}">Continue</a>`);
  }
  function redeemCode(provider: StandinProvider, code: string | undefined, redirectUri: string | undefined, strictRedirect: boolean) {
    const c = code ? codes.get(code) : undefined;
    if (!c || c.provider !== provider || c.expiresAt < Date.now()) return { error: 'bad_code' as const };
    if (c.redirectUri && (strictRedirect || redirectUri) && c.redirectUri !== redirectUri) return { error: 'redirect_mismatch' as const };
    codes.delete(code!);
    return { login: c.login };
  }

  // ── git data as each provider shows it ─────────────────────────────────────────────────────────
  const meta = (fullName: string) => repoMeta.get(fullName) ?? { id: 0, uuid: crypto.randomUUID(), createdAt: new Date().toISOString() };
  const webUrl = (provider: StandinProvider, fullName: string) => `${base}/${provider}/${fullName}`;
  const cloneUrlOf = (provider: StandinProvider, fullName: string) => `${base}/${provider}/${fullName}.git`;
  const owner = (fullName: string) => fullName.split('/')[0]!;
  const repoName = (fullName: string) => fullName.split('/')[1]!;
  const sortedRepos = () => [...repoMeta.keys()].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));

  async function ghRepo(fullName: string) {
    const m = meta(fullName);
    const api = `${base}/github/api/v3`;
    return {
      id: m.id,
      node_id: Buffer.from(`Repository:${m.id}`).toString('base64'),
      name: repoName(fullName),
      full_name: fullName,
      private: true,
      owner: { login: owner(fullName), id: 1, type: 'User', html_url: `${base}/github/${owner(fullName)}` },
      html_url: webUrl('github', fullName),
      description: null,
      fork: false,
      url: `${api}/repos/${fullName}`,
      hooks_url: `${api}/repos/${fullName}/hooks`,
      clone_url: cloneUrlOf('github', fullName),
      git_url: `git://standin/${fullName}.git`,
      ssh_url: `git@standin:${fullName}.git`,
      default_branch: await repos.defaultBranch(fullName),
      visibility: 'private',
      permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
      created_at: m.createdAt,
      updated_at: m.createdAt,
      pushed_at: m.createdAt,
    };
  }
  function ghCommit(fullName: string, c: CommitData, files?: FileChange[]) {
    const api = `${base}/github/api/v3`;
    const author = userByEmail('github', c.authorEmail);
    const committer = userByEmail('github', c.committerEmail);
    const ghUser = (u: StandinUser | undefined) =>
      u ? { login: u.login, id: u.id, avatar_url: u.avatarUrl, type: 'User', html_url: `${base}/github/${u.login}` } : null;
    return {
      sha: c.sha,
      node_id: Buffer.from(`Commit:${c.sha}`).toString('base64'),
      url: `${api}/repos/${fullName}/commits/${c.sha}`,
      html_url: `${webUrl('github', fullName)}/commit/${c.sha}`,
      commit: {
        author: { name: c.authorName, email: c.authorEmail, date: c.authorDate },
        committer: { name: c.committerName, email: c.committerEmail, date: c.committerDate },
        message: c.message,
        tree: { sha: c.tree, url: `${api}/repos/${fullName}/git/trees/${c.tree}` },
        comment_count: 0,
      },
      author: ghUser(author),
      committer: ghUser(committer),
      parents: c.parents.map((p) => ({ sha: p, url: `${api}/repos/${fullName}/commits/${p}` })),
      ...(files ? { files: files.map((f) => ({ filename: f.path, status: f.status, additions: 0, deletions: 0, changes: 0 })) } : {}),
    };
  }
  async function glProject(fullName: string) {
    const m = meta(fullName);
    return {
      id: m.id,
      description: null,
      name: repoName(fullName),
      name_with_namespace: `${owner(fullName)} / ${repoName(fullName)}`,
      path: repoName(fullName),
      path_with_namespace: fullName,
      created_at: m.createdAt,
      default_branch: await repos.defaultBranch(fullName),
      tag_list: [],
      topics: [],
      ssh_url_to_repo: `git@standin:${fullName}.git`,
      http_url_to_repo: cloneUrlOf('gitlab', fullName),
      web_url: webUrl('gitlab', fullName),
      readme_url: null,
      forks_count: 0,
      avatar_url: null,
      star_count: 0,
      last_activity_at: m.createdAt,
      namespace: {
        id: 1,
        name: owner(fullName),
        path: owner(fullName),
        kind: 'user',
        full_path: owner(fullName),
        parent_id: null,
        avatar_url: null,
        web_url: `${base}/gitlab/${owner(fullName)}`,
      },
    };
  }
  const glCommit = (fullName: string, c: CommitData) => ({
    id: c.sha,
    short_id: c.sha.slice(0, 8),
    created_at: c.committerDate,
    parent_ids: c.parents,
    title: c.message.split('\n')[0],
    message: c.message,
    author_name: c.authorName,
    author_email: c.authorEmail,
    authored_date: c.authorDate,
    committer_name: c.committerName,
    committer_email: c.committerEmail,
    committed_date: c.committerDate,
    trailers: {},
    extended_trailers: {},
    web_url: `${webUrl('gitlab', fullName)}/-/commit/${c.sha}`,
  });
  const glDiff = (f: FileChange) => ({
    diff: '',
    new_path: f.path,
    old_path: f.path,
    a_mode: f.status === 'added' ? '0' : '100644',
    b_mode: f.status === 'removed' ? '0' : '100644',
    new_file: f.status === 'added',
    renamed_file: false,
    deleted_file: f.status === 'removed',
  });
  async function bbRepo(fullName: string) {
    const m = meta(fullName);
    const api = `${base}/bitbucket/2.0`;
    const clone = new URL(cloneUrlOf('bitbucket', fullName));
    clone.username = owner(fullName);
    return {
      type: 'repository',
      uuid: braces(m.uuid),
      full_name: fullName,
      name: repoName(fullName),
      slug: repoName(fullName),
      is_private: true,
      scm: 'git',
      description: '',
      language: '',
      created_on: m.createdAt,
      updated_on: m.createdAt,
      has_issues: false,
      has_wiki: false,
      fork_policy: 'no_public_forks',
      owner: {
        type: 'user',
        uuid: braces(
          crypto
            .createHash('md5')
            .update(owner(fullName))
            .digest('hex')
            .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
        ),
        display_name: owner(fullName),
        username: owner(fullName),
      },
      workspace: { type: 'workspace', slug: owner(fullName), name: owner(fullName), uuid: braces(crypto.randomUUID()) },
      mainbranch: { type: 'branch', name: await repos.defaultBranch(fullName) },
      links: {
        self: { href: `${api}/repositories/${fullName}` },
        html: { href: webUrl('bitbucket', fullName) },
        clone: [
          { name: 'https', href: clone.toString() },
          { name: 'ssh', href: `git@standin:${fullName}.git` },
        ],
        hooks: { href: `${api}/repositories/${fullName}/hooks` },
      },
    };
  }
  function bbCommit(fullName: string, c: CommitData) {
    const api = `${base}/bitbucket/2.0`;
    const u = userByEmail('bitbucket', c.authorEmail);
    return {
      type: 'commit',
      hash: c.sha,
      date: c.authorDate,
      message: c.message.endsWith('\n') ? c.message : `${c.message}\n`,
      author: {
        type: 'author',
        raw: `${c.authorName} <${c.authorEmail}>`,
        ...(u
          ? {
              user: {
                type: 'user',
                display_name: u.name,
                uuid: braces(u.uuid),
                account_id: String(u.id),
                nickname: u.login,
                links: { avatar: { href: u.avatarUrl } },
              },
            }
          : {}),
      },
      parents: c.parents.map((p) => ({ type: 'commit', hash: p, links: { self: { href: `${api}/repositories/${fullName}/commit/${p}` } } })),
      repository: { type: 'repository', full_name: fullName, name: repoName(fullName), uuid: braces(meta(fullName).uuid) },
      links: { self: { href: `${api}/repositories/${fullName}/commit/${c.sha}` }, html: { href: `${webUrl('bitbucket', fullName)}/commits/${c.sha}` } },
    };
  }
  async function commitOr404(provider: StandinProvider, fullName: string, ref: string) {
    const sha = await repos.resolve(fullName, ref);
    if (!sha) {
      if (provider === 'github')
        throw new HttpError(422, { message: `No commit found for SHA: ${ref}`, documentation_url: 'https://docs.github.com/rest', status: '422' });
      notFound(provider, 'Commit Not Found');
    }
    return repos.commitData(fullName, sha!);
  }

  // ── webhooks ────────────────────────────────────────────────────────────────────────────────────
  function sign(h: Record<string, string>, provider: StandinProvider, secret: string, body: string) {
    if (!secret) return;
    const hmac = (alg: string) => crypto.createHmac(alg, secret).update(body).digest('hex');
    if (provider === 'github') {
      h['X-Hub-Signature'] = `sha1=${hmac('sha1')}`;
      h['X-Hub-Signature-256'] = `sha256=${hmac('sha256')}`;
    } else if (provider === 'gitlab') h['X-Gitlab-Token'] = secret;
    else h['X-Hub-Signature'] = `sha256=${hmac('sha256')}`;
  }
  async function deliver(hook: StandinHook, event: string, payload: unknown) {
    const body = JSON.stringify(payload);
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (hook.provider === 'github') {
      Object.assign(headers, {
        'User-Agent': 'GitHub-Hookshot/standin',
        'X-GitHub-Event': event,
        'X-GitHub-Delivery': crypto.randomUUID(),
        'X-GitHub-Hook-ID': hook.id,
        'X-GitHub-Hook-Installation-Target-Type': 'repository',
        'X-GitHub-Hook-Installation-Target-ID': String(meta(hook.repo).id),
      });
    } else if (hook.provider === 'gitlab') {
      Object.assign(headers, {
        'User-Agent': 'GitLab/17.0.0',
        'X-Gitlab-Event': event,
        'X-Gitlab-Instance': `${base}/gitlab`,
        'X-Gitlab-Webhook-UUID': crypto.randomUUID(),
        'X-Gitlab-Event-UUID': crypto.randomUUID(),
      });
    } else {
      Object.assign(headers, {
        'User-Agent': 'Bitbucket-Webhooks/2.0',
        'X-Event-Key': event,
        'X-Hook-UUID': hook.id.replace(/[{}]/g, ''),
        'X-Request-UUID': crypto.randomUUID(),
        'X-Attempt-Number': '1',
      });
    }
    sign(headers, hook.provider, hook.secret, body);
    const record: StandinDelivery = { hookId: hook.id, provider: hook.provider, repo: hook.repo, event, url: hook.url, headers, body, status: null };
    deliveries.push(record);
    try {
      if (options.deliver) record.status = (await options.deliver({ url: hook.url, headers, body })).status;
      else if (!isLoopback(hook.url)) record.error = 'not delivered: the stand-in only delivers to loopback addresses';
      else {
        const res = await fetch(hook.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
        record.status = res.status;
        await res.body?.cancel();
      }
    } catch (err) {
      record.error = (err as Error).message;
    }
    return record;
  }
  function track<T>(p: Promise<T>) {
    pending.add(p);
    p.finally(() => pending.delete(p)).catch(() => undefined);
    return p;
  }

  async function pushPayload(
    provider: StandinProvider,
    fullName: string,
    branch: string,
    before: string | null,
    after: string,
    pusher: { name: string; email: string },
  ) {
    const zero = '0'.repeat(40);
    const shas = (await repos.commitsBetween(fullName, before, after)).reverse(); // oldest first
    const commits = await Promise.all(
      shas.slice(-20).map(async (sha) => ({ data: await repos.commitData(fullName, sha), changes: await repos.changesOf(fullName, sha) })),
    );
    const files = (changes: FileChange[], status: FileChange['status']) => changes.filter((c) => c.status === status).map((c) => c.path);
    const head = commits.at(-1)!;
    if (provider === 'github') {
      const pusherUser = userByEmail('github', pusher.email);
      const asCommit = (c: (typeof commits)[number]) => ({
        id: c.data.sha,
        tree_id: c.data.tree,
        distinct: true,
        message: c.data.message,
        timestamp: c.data.authorDate,
        url: `${webUrl('github', fullName)}/commit/${c.data.sha}`,
        author: {
          name: c.data.authorName,
          email: c.data.authorEmail,
          ...(userByEmail('github', c.data.authorEmail) ? { username: userByEmail('github', c.data.authorEmail)!.login } : {}),
        },
        committer: { name: c.data.committerName, email: c.data.committerEmail },
        added: files(c.changes, 'added'),
        removed: files(c.changes, 'removed'),
        modified: files(c.changes, 'modified'),
      });
      const repo = await ghRepo(fullName);
      return {
        ref: `refs/heads/${branch}`,
        before: before ?? zero,
        after,
        created: !before,
        deleted: false,
        forced: false,
        base_ref: null,
        compare: `${webUrl('github', fullName)}/compare/${(before ?? zero).slice(0, 12)}...${after.slice(0, 12)}`,
        commits: commits.map(asCommit),
        head_commit: asCommit(head),
        repository: { ...repo, owner: { ...repo.owner, name: repo.owner.login, email: null }, master_branch: repo.default_branch, stargazers: 0 },
        pusher: { name: pusherUser?.login ?? pusher.name, email: pusher.email },
        sender: pusherUser
          ? { login: pusherUser.login, id: pusherUser.id, avatar_url: pusherUser.avatarUrl, type: 'User' }
          : { login: pusher.name, id: 0, type: 'User' },
      };
    }
    if (provider === 'gitlab') {
      const u = userByEmail('gitlab', pusher.email);
      const project = await glProject(fullName);
      return {
        object_kind: 'push',
        event_name: 'push',
        before: before ?? zero,
        after,
        ref: `refs/heads/${branch}`,
        ref_protected: false,
        checkout_sha: after,
        message: null,
        user_id: u?.id ?? 0,
        user_name: u?.name ?? pusher.name,
        user_username: u?.login ?? pusher.name,
        user_email: pusher.email,
        user_avatar: u?.avatarUrl ?? null,
        project_id: project.id,
        project: {
          id: project.id,
          name: project.name,
          description: null,
          web_url: project.web_url,
          avatar_url: null,
          git_ssh_url: project.ssh_url_to_repo,
          git_http_url: project.http_url_to_repo,
          namespace: owner(fullName),
          visibility_level: 0,
          path_with_namespace: fullName,
          default_branch: project.default_branch,
          ci_config_path: null,
          homepage: project.web_url,
          url: project.ssh_url_to_repo,
          ssh_url: project.ssh_url_to_repo,
          http_url: project.http_url_to_repo,
        },
        commits: commits.map((c) => ({
          id: c.data.sha,
          message: c.data.message,
          title: c.data.message.split('\n')[0],
          timestamp: c.data.authorDate,
          url: `${webUrl('gitlab', fullName)}/-/commit/${c.data.sha}`,
          author: { name: c.data.authorName, email: c.data.authorEmail },
          added: files(c.changes, 'added'),
          modified: files(c.changes, 'modified'),
          removed: files(c.changes, 'removed'),
        })),
        total_commits_count: shas.length,
        push_options: {},
        repository: {
          name: project.name,
          url: project.ssh_url_to_repo,
          description: null,
          homepage: project.web_url,
          git_http_url: project.http_url_to_repo,
          git_ssh_url: project.ssh_url_to_repo,
          visibility_level: 0,
        },
      };
    }
    const u = userByEmail('bitbucket', pusher.email);
    const repo = await bbRepo(fullName);
    const branchObj = (sha: string, c: CommitData) => ({
      type: 'branch',
      name: branch,
      target: bbCommit(fullName, c),
      links: {
        self: { href: `${base}/bitbucket/2.0/repositories/${fullName}/refs/branches/${branch}` },
        html: { href: `${webUrl('bitbucket', fullName)}/branch/${branch}` },
      },
    });
    return {
      push: {
        changes: [
          {
            old: before ? branchObj(before, await repos.commitData(fullName, before)) : null,
            new: branchObj(after, head.data),
            created: !before,
            closed: false,
            forced: false,
            truncated: shas.length > 5,
            commits: commits
              .slice(-5)
              .reverse()
              .map((c) => bbCommit(fullName, c.data)),
            links: { html: { href: `${webUrl('bitbucket', fullName)}/branches/compare/${after}..${before ?? ''}` } },
          },
        ],
      },
      actor: u
        ? { type: 'user', display_name: u.name, uuid: braces(u.uuid), account_id: String(u.id), nickname: u.login, links: { avatar: { href: u.avatarUrl } } }
        : { type: 'user', display_name: pusher.name },
      repository: {
        type: 'repository',
        full_name: fullName,
        name: repo.name,
        uuid: repo.uuid,
        is_private: true,
        scm: 'git',
        links: repo.links,
        workspace: repo.workspace,
        owner: repo.owner,
      },
    };
  }

  function addHook(provider: StandinProvider, repo: string, url: unknown, secret: unknown, events: string[]): StandinHook {
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) {
      if (provider === 'github')
        throw new HttpError(422, {
          message: 'Validation Failed',
          errors: [{ resource: 'Hook', code: 'custom', message: 'Config must contain URL for webhooks' }],
          status: '422',
        });
      if (provider === 'gitlab') throw new HttpError(400, { error: 'url is missing' });
      throw new HttpError(400, { type: 'error', error: { message: 'Bad request', fields: { url: ['Enter a valid URL.'] } } });
    }
    const hook: StandinHook = {
      id: provider === 'bitbucket' ? braces(crypto.randomUUID()) : String(++nextId),
      provider,
      repo,
      url,
      secret: typeof secret === 'string' ? secret : '',
      events,
      active: true,
      createdAt: new Date().toISOString(),
    };
    hooks.push(hook);
    return hook;
  }
  function removeHook(provider: StandinProvider, repo: string, id: string) {
    const i = hooks.findIndex((h) => h.provider === provider && h.repo === repo && (h.id === id || h.id === braces(id) || h.id.replace(/[{}]/g, '') === id));
    if (i < 0) notFound(provider, 'Hook Not Found');
    hooks.splice(i, 1);
  }
  const ghHook = (h: StandinHook) => ({
    type: 'Repository',
    id: Number(h.id),
    name: 'web',
    active: h.active,
    events: h.events,
    config: { content_type: 'json', insecure_ssl: '0', url: h.url, ...(h.secret ? { secret: '********' } : {}) },
    updated_at: h.createdAt,
    created_at: h.createdAt,
    url: `${base}/github/api/v3/repos/${h.repo}/hooks/${h.id}`,
    test_url: `${base}/github/api/v3/repos/${h.repo}/hooks/${h.id}/test`,
    ping_url: `${base}/github/api/v3/repos/${h.repo}/hooks/${h.id}/pings`,
    deliveries_url: `${base}/github/api/v3/repos/${h.repo}/hooks/${h.id}/deliveries`,
    last_response: { code: null, status: 'unused', message: null },
  });
  const glHook = (h: StandinHook) => ({
    id: Number(h.id),
    url: h.url,
    project_id: meta(h.repo).id,
    push_events: true,
    push_events_branch_filter: '',
    issues_events: false,
    confidential_issues_events: false,
    merge_requests_events: false,
    tag_push_events: false,
    note_events: false,
    job_events: false,
    pipeline_events: false,
    wiki_page_events: false,
    enable_ssl_verification: true,
    created_at: h.createdAt,
    alert_status: 'executable',
  });
  const bbHook = (h: StandinHook) => ({
    type: 'webhook_subscription',
    uuid: h.id,
    url: h.url,
    description: 'Gantry pipelines',
    subject_type: 'repository',
    subject: { type: 'repository', full_name: h.repo, uuid: braces(meta(h.repo).uuid) },
    active: h.active,
    events: h.events,
    created_at: h.createdAt,
    secret_set: !!h.secret,
  });

  // ── provider routes ─────────────────────────────────────────────────────────────────────────────
  type Ctx = { req: IncomingMessage; res: ServerResponse; url: URL; seg: string[]; method: string };
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };

  async function github({ req, res, url, seg, method }: Ctx): Promise<boolean> {
    const p = 'github';
    if (seg[0] === 'login' && seg[1] === 'oauth' && seg[2] === 'authorize' && method === 'GET') {
      const q = url.searchParams;
      if (q.get('client_id') !== clients.github.clientId) throw new HttpError(404, 'Unknown OAuth application');
      const code = issueCode(p, { login: q.get('login') || undefined, redirectUri: q.get('redirect_uri') ?? undefined });
      redirectBack(res, q.get('redirect_uri') ?? undefined, { code, ...(q.get('state') ? { state: q.get('state')! } : {}) });
      return true;
    }
    if (seg[0] === 'login' && seg[1] === 'oauth' && seg[2] === 'access_token' && method === 'POST') {
      const b = await params(req, url.searchParams);
      const answer = (body: Record<string, string>) => {
        if ((req.headers.accept ?? '').includes('json')) json(res, 200, body);
        else {
          res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' });
          res.end(new URLSearchParams(body).toString());
        }
      };
      if (b.client_id !== clients.github.clientId || b.client_secret !== clients.github.clientSecret) {
        answer({
          error: 'incorrect_client_credentials',
          error_description: 'The client_id and/or client_secret passed are incorrect.',
          error_uri: 'https://docs.github.com/apps',
        });
        return true;
      }
      const r = redeemCode(p, b.code, b.redirect_uri, false);
      if ('error' in r) {
        answer(
          r.error === 'bad_code'
            ? { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.', error_uri: 'https://docs.github.com/apps' }
            : {
                error: 'redirect_uri_mismatch',
                error_description: 'The redirect_uri MUST match the registered callback URL for this application.',
                error_uri: 'https://docs.github.com/apps',
              },
        );
        return true;
      }
      answer({ access_token: issue(p, 'access', r.login).token, token_type: 'bearer', scope: 'repo' });
      return true;
    }
    if (seg[0] !== 'api' || seg[1] !== 'v3') return false;
    const api = seg.slice(2);
    const t = requireToken(p, req);
    const me = user(p, t.login);
    if (api[0] === 'user' && api.length === 1 && method === 'GET') {
      json(res, 200, {
        login: me.login,
        id: me.id,
        node_id: Buffer.from(`User:${me.id}`).toString('base64'),
        avatar_url: me.avatarUrl,
        html_url: `${base}/github/${me.login}`,
        type: 'User',
        site_admin: false,
        name: me.name,
        email: me.email,
        created_at: '2020-01-01T00:00:00Z',
      });
      return true;
    }
    if (api[0] === 'user' && api[1] === 'emails' && method === 'GET') {
      json(res, 200, [{ email: me.email, primary: true, verified: true, visibility: 'private' }]);
      return true;
    }
    if (api[0] === 'user' && api[1] === 'repos' && method === 'GET') {
      const pg = paginate(sortedRepos(), url.searchParams, 'per_page', 30);
      const links = [];
      if (pg.hasNext)
        links.push(`<${pageUrl(url, pg.page + 1, 'per_page', pg.perPage)}>; rel="next"`, `<${pageUrl(url, pg.pages, 'per_page', pg.perPage)}>; rel="last"`);
      if (pg.page > 1)
        links.push(`<${pageUrl(url, pg.page - 1, 'per_page', pg.perPage)}>; rel="prev"`, `<${pageUrl(url, 1, 'per_page', pg.perPage)}>; rel="first"`);
      json(res, 200, await Promise.all(pg.values.map(ghRepo)), links.length ? { link: links.join(', ') } : {});
      return true;
    }
    if (api[0] !== 'repos' || api.length < 3) return false;
    const full = repoOr404(p, `${api[1]}/${api[2]}`);
    const rest = api.slice(3);
    if (rest.length === 0 && method === 'GET') return (json(res, 200, await ghRepo(full)), true);
    if (rest[0] === 'branches' && rest.length === 1 && method === 'GET') {
      const pg = paginate(await repos.branches(full), url.searchParams, 'per_page', 30);
      const link: Record<string, string> = pg.hasNext
        ? { link: `<${pageUrl(url, pg.page + 1, 'per_page', pg.perPage)}>; rel="next", <${pageUrl(url, pg.pages, 'per_page', pg.perPage)}>; rel="last"` }
        : {};
      json(
        res,
        200,
        pg.values.map((b) => ({ name: b.name, commit: { sha: b.sha, url: `${base}/github/api/v3/repos/${full}/commits/${b.sha}` }, protected: false })),
        link,
      );
      return true;
    }
    if (rest[0] === 'commits' && rest.length === 2 && method === 'GET') {
      const c = await commitOr404(p, full, rest[1]!);
      json(res, 200, ghCommit(full, c, await repos.changesOf(full, c.sha)));
      return true;
    }
    if (rest[0] === 'compare' && rest.length === 2 && method === 'GET') {
      const [from, to] = rest[1]!.split('...');
      const a = from ? await repos.resolve(full, from) : null;
      const b = to ? await repos.resolve(full, to) : null;
      if (!a || !b) return notFound(p);
      const shas = (await repos.commitsBetween(full, a, b)).reverse();
      const commits = await Promise.all(shas.map(async (s) => ghCommit(full, await repos.commitData(full, s))));
      const behind = (await repos.commitsBetween(full, b, a)).length;
      json(res, 200, {
        url: `${base}/github/api/v3/repos/${full}/compare/${rest[1]}`,
        status: behind && shas.length ? 'diverged' : shas.length ? 'ahead' : behind ? 'behind' : 'identical',
        ahead_by: shas.length,
        behind_by: behind,
        total_commits: shas.length,
        commits,
        files: (await repos.changesBetween(full, a, b)).map((f) => ({ filename: f.path, status: f.status, additions: 0, deletions: 0, changes: 0 })),
      });
      return true;
    }
    if (rest[0] === 'contents' && method === 'GET') {
      const file = rest.slice(1).join('/');
      const ref = url.searchParams.get('ref') ?? (await repos.defaultBranch(full));
      const sha = await repos.resolve(full, ref);
      const found = sha ? await repos.read(full, sha, file) : null;
      if (!found) return notFound(p);
      if (found.kind === 'tree') {
        json(
          res,
          200,
          found.entries.map((e) => ({
            type: e.type === 'blob' ? 'file' : 'dir',
            name: e.name,
            path: file ? `${file}/${e.name}` : e.name,
            sha: e.sha,
            size: 0,
          })),
        );
        return true;
      }
      if ((req.headers.accept ?? '').includes('raw')) {
        res.writeHead(200, { 'content-type': 'application/vnd.github.raw; charset=utf-8' });
        res.end(found.data);
        return true;
      }
      const b64 = found.data.toString('base64').replace(/(.{60})/g, '$1\n');
      json(res, 200, {
        type: 'file',
        encoding: 'base64',
        size: found.data.length,
        name: path.posix.basename(file),
        path: file,
        content: `${b64}\n`,
        sha: found.sha,
        url: `${base}/github/api/v3/repos/${full}/contents/${file}?ref=${ref}`,
        html_url: `${webUrl('github', full)}/blob/${ref}/${file}`,
        download_url: `${base}/github/raw/${full}/${ref}/${file}`,
      });
      return true;
    }
    if (rest[0] === 'hooks' && rest.length === 1 && method === 'POST') {
      const b = await params(req, new URLSearchParams());
      const hook = addHook(p, full, b.config?.url, b.config?.secret, Array.isArray(b.events) ? b.events : ['push']);
      json(res, 201, ghHook(hook));
      // GitHub pings a new hook right away.
      const sender = { login: me.login, id: me.id, avatar_url: me.avatarUrl, type: 'User' };
      track(
        ghRepo(full).then((repository) =>
          deliver(hook, 'ping', { zen: 'Keep it logically awesome.', hook_id: Number(hook.id), hook: ghHook(hook), repository, sender }),
        ),
      );
      return true;
    }
    if (rest[0] === 'hooks' && rest.length === 1 && method === 'GET')
      return (json(res, 200, hooks.filter((h) => h.provider === p && h.repo === full).map(ghHook)), true);
    if (rest[0] === 'hooks' && rest.length === 2 && method === 'DELETE') {
      removeHook(p, full, rest[1]!);
      res.writeHead(204).end();
      return true;
    }
    return false;
  }

  async function gitlab({ req, res, url, seg, method }: Ctx): Promise<boolean> {
    const p = 'gitlab';
    if (seg[0] === 'oauth' && seg[1] === 'authorize' && method === 'GET') {
      const q = url.searchParams;
      if (q.get('client_id') !== clients.gitlab.clientId) throw new HttpError(400, 'The client identifier provided is invalid.');
      if (q.get('response_type') !== 'code') throw new HttpError(400, 'The authorization server does not support this response type.');
      const redirectUri = q.get('redirect_uri') ?? undefined;
      const code = issueCode(p, { login: q.get('login') || undefined, redirectUri });
      redirectBack(res, redirectUri, { code, ...(q.get('state') ? { state: q.get('state')! } : {}) });
      return true;
    }
    if (seg[0] === 'oauth' && seg[1] === 'token' && method === 'POST') {
      const b = await params(req, url.searchParams);
      const basicAuth = basic(req);
      const id = b.client_id ?? basicAuth?.user;
      const secret = b.client_secret ?? basicAuth?.password;
      if (id !== clients.gitlab.clientId || secret !== clients.gitlab.clientSecret) {
        return (
          json(res, 401, {
            error: 'invalid_client',
            error_description: 'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
          }),
          true
        );
      }
      const invalidGrant = () =>
        json(res, 400, {
          error: 'invalid_grant',
          error_description:
            'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
        });
      let login: string;
      if (b.grant_type === 'authorization_code') {
        const r = redeemCode(p, b.code, b.redirect_uri, true);
        if ('error' in r) return (invalidGrant(), true);
        login = r.login;
      } else if (b.grant_type === 'refresh_token') {
        const old = tokens.get(b.refresh_token ?? '');
        if (!old || old.provider !== p || old.kind !== 'refresh' || old.revoked) return (invalidGrant(), true);
        old.revoked = true; // GitLab refresh tokens are single-use
        login = old.login;
      } else {
        return (
          json(res, 400, { error: 'unsupported_grant_type', error_description: 'The authorization grant type is not supported by the authorization server.' }),
          true
        );
      }
      const access = issue(p, 'access', login);
      json(res, 200, {
        access_token: access.token,
        token_type: 'Bearer',
        expires_in: ttl,
        refresh_token: issue(p, 'refresh', login).token,
        scope: 'read_repository api read_user',
        created_at: Math.floor(Date.now() / 1000),
      });
      return true;
    }
    if (seg[0] !== 'api' || seg[1] !== 'v4') return false;
    const api = seg.slice(2);
    const t = requireToken(p, req);
    const me = user(p, t.login);
    const pageHeaders = (pg: ReturnType<typeof paginate>) => ({
      'x-page': String(pg.page),
      'x-per-page': String(pg.perPage),
      'x-total': String(pg.total),
      'x-total-pages': String(pg.pages),
      'x-next-page': pg.hasNext ? String(pg.page + 1) : '',
      'x-prev-page': pg.page > 1 ? String(pg.page - 1) : '',
      ...(pg.hasNext
        ? {
            link: `<${pageUrl(url, pg.page + 1, 'per_page', pg.perPage)}>; rel="next", <${pageUrl(url, 1, 'per_page', pg.perPage)}>; rel="first", <${pageUrl(url, pg.pages, 'per_page', pg.perPage)}>; rel="last"`,
          }
        : {}),
    });
    if (api[0] === 'user' && api.length === 1 && method === 'GET') {
      json(res, 200, {
        id: me.id,
        username: me.login,
        name: me.name,
        state: 'active',
        locked: false,
        avatar_url: me.avatarUrl,
        web_url: `${base}/gitlab/${me.login}`,
        email: me.email,
        created_at: '2020-01-01T00:00:00.000Z',
      });
      return true;
    }
    if (api[0] === 'projects' && api.length === 1 && method === 'GET') {
      const pg = paginate(sortedRepos(), url.searchParams, 'per_page', 20);
      json(res, 200, await Promise.all(pg.values.map(glProject)), pageHeaders(pg));
      return true;
    }
    if (api[0] !== 'projects' || api.length < 2) return false;
    const idOrPath = api[1]!;
    const full = repoOr404(p, /^\d+$/.test(idOrPath) ? ([...repoMeta.entries()].find(([, m]) => String(m.id) === idOrPath)?.[0] ?? '') : idOrPath);
    const rest = api.slice(2);
    if (rest.length === 0 && method === 'GET') return (json(res, 200, await glProject(full)), true);
    if (rest[0] === 'repository') {
      const r = rest.slice(1);
      if (r[0] === 'branches' && r.length === 1 && method === 'GET') {
        const def = await repos.defaultBranch(full);
        const pg = paginate(await repos.branches(full), url.searchParams, 'per_page', 20);
        const values = await Promise.all(
          pg.values.map(async (b) => ({
            name: b.name,
            merged: false,
            protected: false,
            default: b.name === def,
            developers_can_push: false,
            developers_can_merge: false,
            can_push: true,
            web_url: `${webUrl('gitlab', full)}/-/tree/${b.name}`,
            commit: glCommit(full, await repos.commitData(full, b.sha)),
          })),
        );
        json(res, 200, values, pageHeaders(pg));
        return true;
      }
      if (r[0] === 'commits' && r.length === 2 && method === 'GET') {
        const c = await commitOr404(p, full, r[1]!);
        json(res, 200, { ...glCommit(full, c), stats: { additions: 0, deletions: 0, total: 0 }, status: null, project_id: meta(full).id, last_pipeline: null });
        return true;
      }
      if (r[0] === 'commits' && r.length === 3 && r[2] === 'diff' && method === 'GET') {
        const c = await commitOr404(p, full, r[1]!);
        const pg = paginate((await repos.changesOf(full, c.sha)).map(glDiff), url.searchParams, 'per_page', 20);
        json(res, 200, pg.values, pageHeaders(pg));
        return true;
      }
      if (r[0] === 'compare' && method === 'GET') {
        const a = await repos.resolve(full, url.searchParams.get('from') ?? '');
        const b = await repos.resolve(full, url.searchParams.get('to') ?? '');
        if (!a || !b) return notFound(p, 'Ref Not Found');
        const shas = await repos.commitsBetween(full, a, b);
        const commits = await Promise.all(shas.reverse().map(async (s) => glCommit(full, await repos.commitData(full, s))));
        json(res, 200, {
          commit: commits.at(-1) ?? null,
          commits,
          diffs: (await repos.changesBetween(full, a, b)).map(glDiff),
          compare_timeout: false,
          compare_same_ref: a === b,
          web_url: `${webUrl('gitlab', full)}/-/compare/${a}...${b}`,
        });
        return true;
      }
      if (r[0] === 'files' && r.length === 3 && r[2] === 'raw' && method === 'GET') {
        const ref = url.searchParams.get('ref') ?? (await repos.defaultBranch(full));
        const sha = await repos.resolve(full, ref);
        const found = sha ? await repos.read(full, sha, r[1]!) : null;
        if (!found || found.kind !== 'blob') return notFound(p, 'File Not Found');
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-gitlab-file-path': r[1]!, 'x-gitlab-ref': ref, 'x-gitlab-commit-id': sha! });
        res.end(found.data);
        return true;
      }
      return false;
    }
    if (rest[0] === 'hooks' && rest.length === 1 && method === 'POST') {
      const b = await params(req, url.searchParams);
      if (b.push_events === false || b.push_events === 'false') throw new HttpError(400, { error: 'the stand-in only delivers push events' });
      json(res, 201, glHook(addHook(p, full, b.url, b.token, ['push'])));
      return true;
    }
    if (rest[0] === 'hooks' && rest.length === 1 && method === 'GET')
      return (json(res, 200, hooks.filter((h) => h.provider === p && h.repo === full).map(glHook)), true);
    if (rest[0] === 'hooks' && rest.length === 2 && method === 'DELETE') {
      removeHook(p, full, rest[1]!);
      res.writeHead(204).end();
      return true;
    }
    return false;
  }

  async function bitbucket({ req, res, url, seg, method }: Ctx): Promise<boolean> {
    const p = 'bitbucket';
    if (seg[0] === 'site' && seg[1] === 'oauth2' && seg[2] === 'authorize' && method === 'GET') {
      const q = url.searchParams;
      if (q.get('client_id') !== clients.bitbucket.clientId) throw new HttpError(400, 'Invalid client_id');
      const redirectUri = q.get('redirect_uri') ?? undefined;
      const code = issueCode(p, { login: q.get('login') || undefined, redirectUri });
      redirectBack(res, redirectUri, { code, ...(q.get('state') ? { state: q.get('state')! } : {}) });
      return true;
    }
    if (seg[0] === 'site' && seg[1] === 'oauth2' && seg[2] === 'access_token' && method === 'POST') {
      const b = await params(req, url.searchParams);
      const basicAuth = basic(req);
      const id = basicAuth?.user ?? b.client_id;
      const secret = basicAuth?.password ?? b.client_secret;
      if (id !== clients.bitbucket.clientId || secret !== clients.bitbucket.clientSecret)
        return (json(res, 400, { error: 'invalid_client', error_description: 'Invalid OAuth client credentials' }), true);
      let login: string;
      let refresh: string;
      if (b.grant_type === 'authorization_code') {
        const r = redeemCode(p, b.code, b.redirect_uri, false);
        if ('error' in r) return (json(res, 400, { error: 'invalid_grant', error_description: 'The specified code is not valid.' }), true);
        login = r.login;
        refresh = issue(p, 'refresh', login).token;
      } else if (b.grant_type === 'refresh_token') {
        const old = tokens.get(b.refresh_token ?? '');
        if (!old || old.provider !== p || old.kind !== 'refresh' || old.revoked)
          return (json(res, 400, { error: 'invalid_grant', error_description: 'Invalid refresh_token' }), true);
        login = old.login;
        refresh = old.token; // Bitbucket refresh tokens do not change
      } else {
        return (json(res, 400, { error: 'unsupported_grant_type', error_description: `Unsupported grant type: ${b.grant_type}` }), true);
      }
      json(res, 200, {
        access_token: issue(p, 'access', login).token,
        scopes: 'repository account webhook',
        token_type: 'bearer',
        expires_in: ttl,
        state: b.grant_type,
        refresh_token: refresh,
      });
      return true;
    }
    if (seg[0] !== '2.0') return false;
    const api = seg.slice(1);
    const t = requireToken(p, req);
    const me = user(p, t.login);
    const page = <T>(items: T[], defaultSize = 10) => {
      const pg = paginate(items, url.searchParams, 'pagelen', defaultSize);
      return {
        pagelen: pg.perPage,
        size: pg.total,
        page: pg.page,
        values: pg.values,
        ...(pg.hasNext ? { next: pageUrl(url, pg.page + 1, 'pagelen', pg.perPage) } : {}),
        ...(pg.page > 1 ? { previous: pageUrl(url, pg.page - 1, 'pagelen', pg.perPage) } : {}),
      };
    };
    if (api[0] === 'user' && api.length === 1 && method === 'GET') {
      json(res, 200, {
        type: 'user',
        uuid: braces(me.uuid),
        username: me.login,
        nickname: me.login,
        display_name: me.name,
        account_id: String(me.id),
        account_status: 'active',
        created_on: '2020-01-01T00:00:00.000000+00:00',
        has_2fa_enabled: null,
        links: {
          self: { href: `${base}/bitbucket/2.0/users/${braces(me.uuid)}` },
          avatar: { href: me.avatarUrl },
          html: { href: `${base}/bitbucket/${braces(me.uuid)}/` },
        },
      });
      return true;
    }
    if (api[0] !== 'repositories') return false;
    if (api.length === 1 && method === 'GET') {
      const list = page(sortedRepos());
      json(res, 200, { ...list, values: await Promise.all(list.values.map(bbRepo)) });
      return true;
    }
    if (api.length < 3) return false;
    const full = repoOr404(p, `${api[1]}/${api[2]}`);
    const rest = api.slice(3);
    if (rest.length === 0 && method === 'GET') return (json(res, 200, await bbRepo(full)), true);
    const branchObj = async (name: string, sha: string) => ({
      type: 'branch',
      name,
      target: bbCommit(full, await repos.commitData(full, sha)),
      links: {
        self: { href: `${base}/bitbucket/2.0/repositories/${full}/refs/branches/${name}` },
        html: { href: `${webUrl('bitbucket', full)}/branch/${name}` },
      },
    });
    if (rest[0] === 'refs' && rest[1] === 'branches' && rest.length === 2 && method === 'GET') {
      const list = page(await repos.branches(full));
      json(res, 200, { ...list, values: await Promise.all(list.values.map((b) => branchObj(b.name, b.sha))) });
      return true;
    }
    if (rest[0] === 'refs' && rest[1] === 'branches' && rest.length >= 3 && method === 'GET') {
      const name = rest.slice(2).join('/');
      const sha = await repos.resolve(full, `refs/heads/${name}`);
      if (!sha) return notFound(p, `Branch "${name}" does not exist.`);
      return (json(res, 200, await branchObj(name, sha)), true);
    }
    if (rest[0] === 'commit' && rest.length === 2 && method === 'GET') {
      if (!/^[0-9a-f]{4,40}$/i.test(rest[1]!)) return notFound(p, `Commit not found`);
      const c = await commitOr404(p, full, rest[1]!);
      return (json(res, 200, bbCommit(full, c)), true);
    }
    if (rest[0] === 'src' && rest.length >= 2 && method === 'GET') {
      const sha = await repos.resolve(full, rest[1]!);
      const file = rest.slice(2).join('/');
      const found = sha ? await repos.read(full, sha, file) : null;
      if (!found) return notFound(p, 'No such file or directory');
      if (found.kind === 'tree') {
        json(
          res,
          200,
          page(
            found.entries.map((e) => ({
              type: e.type === 'blob' ? 'commit_file' : 'commit_directory',
              path: file ? `${file}/${e.name}` : e.name,
              commit: { type: 'commit', hash: sha },
            })),
          ),
        );
        return true;
      }
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(found.data);
      return true;
    }
    if (rest[0] === 'diffstat' && rest.length === 2 && method === 'GET') {
      const [newRef, oldRef] = rest[1]!.split('..');
      const to = newRef ? await repos.resolve(full, newRef) : null;
      if (!to) return notFound(p, 'Commit not found');
      let changes: FileChange[];
      if (oldRef) {
        const from = await repos.resolve(full, oldRef);
        if (!from) return notFound(p, 'Commit not found');
        changes = await repos.changesBetween(full, from, to);
      } else changes = await repos.changesOf(full, to);
      const file = (pth: string) => ({ path: pth, type: 'commit_file', escaped_path: pth });
      json(
        res,
        200,
        page(
          changes.map((c) => ({
            type: 'diffstat',
            status: c.status,
            lines_added: 0,
            lines_removed: 0,
            old: c.status === 'added' ? null : file(c.path),
            new: c.status === 'removed' ? null : file(c.path),
          })),
          500,
        ),
      );
      return true;
    }
    if (rest[0] === 'hooks' && rest.length === 1 && method === 'POST') {
      const b = await params(req, new URLSearchParams());
      const events: string[] = Array.isArray(b.events) ? b.events : [];
      if (!events.includes('repo:push'))
        throw new HttpError(400, {
          type: 'error',
          error: { message: 'The stand-in only delivers repo:push events', fields: { events: ['Include repo:push'] } },
        });
      json(res, 201, bbHook(addHook(p, full, b.url, b.secret, events)));
      return true;
    }
    if (rest[0] === 'hooks' && rest.length === 1 && method === 'GET')
      return (json(res, 200, page(hooks.filter((h) => h.provider === p && h.repo === full).map(bbHook))), true);
    if (rest[0] === 'hooks' && rest.length === 2 && method === 'DELETE') {
      removeHook(p, full, rest[1]!);
      res.writeHead(204).end();
      return true;
    }
    return false;
  }

  /** Delivers a push of `branch` (before → after) to the repository's active hooks, in each provider's shape. */
  async function notifyPush(fullName: string, branch: string, before: string | null, after: string, pusher: { name: string; email: string }) {
    for (const hook of hooks.filter((h) => h.repo === fullName && h.active)) {
      const event = hook.provider === 'github' ? 'push' : hook.provider === 'gitlab' ? 'Push Hook' : 'repo:push';
      await track(pushPayload(hook.provider, fullName, branch, before, after, pusher).then((payload) => deliver(hook, event, payload)));
    }
  }

  /** After a `git push` over HTTP: the branches it created or moved, as webhooks (deleted branches send none). */
  async function notifyPushedBranches(fullName: string, before: Map<string, string>) {
    for (const { name, sha } of await repos.branches(fullName)) {
      if (before.get(name) === sha) continue;
      const head = await repos.commitData(fullName, sha);
      await notifyPush(fullName, name, before.get(name) ?? null, sha, { name: head.authorName, email: head.authorEmail });
    }
  }

  // ── git over HTTP and the repository web page ─────────────────────────────────────────────────────
  const GIT_PATH =
    /^\/(github|gitlab|bitbucket)\/([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+?)(?:\.git)?(\/(?:info\/refs|git-upload-pack|git-receive-pack|HEAD|objects\/.+))$/;
  function gitRequest(req: IncomingMessage, res: ServerResponse, url: URL): boolean {
    const m = url.pathname.match(GIT_PATH);
    if (!m) return false;
    const provider = m[1] as StandinProvider;
    if (!served.has(provider)) return false;
    const full = `${m[2]}/${m[3]}`;
    const creds = basic(req);
    const t = creds && validAccess(provider, creds.password);
    if (!t) {
      res.writeHead(401, { 'www-authenticate': `Basic realm="${provider} stand-in"`, 'content-type': 'text/plain' });
      res.end('Authentication required: use an access token as the password');
      return true;
    }
    if (!repos.exists(full)) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Repository not found');
      return true;
    }
    const serve = () => serveGit(req, res, { root, pathInfo: `/${full}.git${m[4]}`, query: url.search.replace(/^\?/, ''), user: t.login });
    if (m[4] !== '/git-receive-pack' || req.method !== 'POST') {
      serve();
      return true;
    }
    // a push: the request body waits (paused) while the branches before it are read
    void track(
      repos.branches(full).then((branches) => {
        const before = new Map(branches.map((b) => [b.name, b.sha]));
        const pushed = new Promise<void>((resolve) => res.once('close', resolve));
        serve();
        return pushed.then(() => notifyPushedBranches(full, before));
      }),
    ).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err));
    });
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', base);
    const method = req.method ?? 'GET';
    try {
      if (gitRequest(req, res, url)) return;
      const [prefix, ...raw] = url.pathname.split('/').slice(1);
      const seg = raw.map((s) => decodeURIComponent(s));
      if (seg.at(-1) === '') seg.pop();
      const provider = prefix as StandinProvider;
      if (served.has(provider)) {
        const ctx: Ctx = { req, res, url, seg, method };
        const handled = provider === 'github' ? await github(ctx) : provider === 'gitlab' ? await gitlab(ctx) : await bitbucket(ctx);
        if (handled) return;
        // The repository's web page (links in the portal point here).
        if (method === 'GET' && seg.length >= 2 && repos.exists(`${seg[0]}/${seg[1]!.replace(/\.git$/, '')}`)) {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(`<!doctype html><title>${seg[0]}/${seg[1]}</title><h1>${provider} stand-in: ${seg.join('/')}</h1>`);
          return;
        }
        return notFound(provider);
      }
      json(res, 404, { message: 'Not Found' });
    } catch (err) {
      if (res.headersSent) return void res.destroy();
      if (err instanceof HttpError) {
        if (typeof err.body === 'string') {
          res.writeHead(err.status, { 'content-type': 'text/plain; charset=utf-8', ...err.headers });
          res.end(err.body);
        } else json(res, err.status, err.body, err.headers);
        return;
      }
      json(res, 500, { message: (err as Error).message });
    }
  }

  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(options.port ?? 0, '127.0.0.1', resolve)).catch((err: unknown) => {
    fs.rmSync(root, { recursive: true, force: true });
    throw err;
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const env: Record<string, string> = {};
  if (served.has('github'))
    Object.assign(env, {
      GITHUB_CLIENT_ID: clients.github.clientId,
      GITHUB_CLIENT_SECRET: clients.github.clientSecret,
      GITHUB_OAUTH_URL: `${base}/github`,
      GITHUB_API_URL: `${base}/github/api/v3`,
    });
  if (served.has('gitlab'))
    Object.assign(env, { GITLAB_CLIENT_ID: clients.gitlab.clientId, GITLAB_CLIENT_SECRET: clients.gitlab.clientSecret, GITLAB_URL: `${base}/gitlab` });
  if (served.has('bitbucket'))
    Object.assign(env, {
      BITBUCKET_CLIENT_ID: clients.bitbucket.clientId,
      BITBUCKET_CLIENT_SECRET: clients.bitbucket.clientSecret,
      BITBUCKET_OAUTH_URL: `${base}/bitbucket`,
      BITBUCKET_API_URL: `${base}/bitbucket/2.0`,
    });
  const primary: StandinProvider = [...STANDIN_PROVIDERS].find((p) => served.has(p)) ?? 'github';

  return {
    url: base,
    env,
    github: { oauthUrl: `${base}/github`, apiUrl: `${base}/github/api/v3`, ...clients.github },
    gitlab: { url: `${base}/gitlab`, ...clients.gitlab },
    bitbucket: { oauthUrl: `${base}/bitbucket`, apiUrl: `${base}/bitbucket/2.0`, ...clients.bitbucket },

    async createRepo(fullName, files, branch = 'main') {
      await repos.init(fullName, branch);
      repoMeta.set(fullName, { id: ++nextId, uuid: crypto.randomUUID(), createdAt: new Date().toISOString() });
      const { sha } = await repos.commit(fullName, files, 'Initial commit', branch, { name: 'Stand-in Dev', email: 'dev@standin.test' });
      const urls = Object.fromEntries(STANDIN_PROVIDERS.map((p) => [p, cloneUrlOf(p, fullName)])) as Record<StandinProvider, string>;
      return { cloneUrl: urls[primary], urls, path: repos.dirOf(fullName), sha };
    },

    async commit(fullName, files, message, branch = 'main', o = {}) {
      if (!repoMeta.has(fullName)) throw new Error(`No repository ${fullName}; create it first`);
      const author = o.author ?? { name: user(primary).name, email: user(primary).email };
      const { sha, before } = await repos.commit(fullName, files, message, branch, author);
      await notifyPush(fullName, branch, before, sha, author);
      return sha;
    },

    issueCode,
    issueToken: (provider, login = defaultLogin) => {
      user(provider, login);
      return issue(provider, 'access', login).token;
    },
    expireAccessTokens(provider) {
      for (const t of tokens.values()) if (t.kind === 'access' && (!provider || t.provider === provider)) t.expiresAt = Date.now() - 1000;
    },
    user,
    get hooks() {
      return hooks;
    },
    get deliveries() {
      return deliveries;
    },
    get issuedTokens() {
      return [...tokens.values()];
    },
    async settled() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    async close() {
      await Promise.allSettled([...pending]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
