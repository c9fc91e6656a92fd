import crypto from 'node:crypto';
import type { GitProvider, GitRepository } from '@gantry/contracts';

/** What a provider answers for an authorization code or a refresh token. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  expiresAt?: Date;
}

export interface GitUser {
  id: string;
  name: string;
}
export interface GitCommitInfo {
  sha: string;
  message: string;
  author: string;
  avatar: string | null;
}

/** A verified push to a branch, read from a provider's webhook delivery. */
export interface PushEvent {
  branch: string;
  sha: string;
  /** The branch head before the push; null for a new branch. */
  before: string | null;
  message: string;
  author: string;
  changedFiles: string[];
  /**
   * False when the payload cannot list every changed file: Bitbucket's push payload names no files,
   * GitHub and GitLab include at most 20 commits. Call `changedFiles(token, repo, before, sha)` then.
   */
  changedFilesComplete: boolean;
}

export type HeaderBag = Record<string, string | string[] | undefined>;

/**
 * The one narrow interface Gantry speaks to GitHub, GitLab and Bitbucket through (plain fetch, base URLs
 * from configuration, so GitHub Enterprise, self-managed GitLab and the local stand-in work unchanged).
 * Repositories are named by their full name (owner/name; GitLab's path_with_namespace).
 */
export interface GitProviderClient {
  readonly type: GitProvider;
  /** The scopes asked for on the authorize page. */
  readonly scopes: string;
  /** The provider's authorize page: client id, scopes, state 'redirect:portal' and the configured redirect URI. */
  authorizeUrl(): string;
  exchangeCode(code: string, redirectUri?: string): Promise<TokenSet>;
  refresh(refreshToken: string): Promise<TokenSet>;
  currentUser(token: string): Promise<GitUser>;
  /** Every repository the account is a member of (all pages). `url` is the https web URL, which git can clone. */
  listRepositories(token: string): Promise<GitRepository[]>;
  listBranches(token: string, repo: string): Promise<string[]>;
  getCommit(token: string, repo: string, branchOrSha: string): Promise<GitCommitInfo>;
  /** A file's text at a ref; null when the file (or the ref) does not exist. */
  getFile(token: string, repo: string, ref: string, path: string): Promise<string | null>;
  /** Files changed between two commits (before null: the files of `after` alone). */
  changedFiles(token: string, repo: string, before: string | null, after: string): Promise<string[]>;
  /** Registers a push webhook signed/authenticated with `secret`; answers the hook id. */
  createWebhook(token: string, repo: string, url: string, secret: string): Promise<string>;
  /** Removes a hook; one that is already gone is fine. */
  deleteWebhook(token: string, repo: string, id: string): Promise<void>;
  /** The https clone URL carrying the token as credentials. */
  cloneUrl(repoUrl: string, token: string): string;
  /**
   * Verifies a webhook delivery (timing-safe) and reads the push from it. Throws InvalidSignature when the
   * signature or token does not match; answers null for other events, tag pushes and branch deletions.
   */
  parsePush(headers: HeaderBag, rawBody: string, secret: string): PushEvent | null;
}

/** The provider answered with an error status (status 0: it could not be reached). */
export class GitProviderError extends Error {
  constructor(
    readonly provider: GitProvider,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'GitProviderError';
  }
}

export class InvalidSignature extends Error {
  constructor(message = 'Webhook signature does not match') {
    super(message);
    this.name = 'InvalidSignature';
  }
}

export const PORTAL_STATE = 'redirect:portal';

/** One header's first value, whatever its case. */
export function header(headers: HeaderBag, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === wanted) return Array.isArray(v) ? v[0] : v;
  }
  return undefined;
}

/** Constant-time comparison of two strings of any length (both are hashed to equal length first). */
export function timingSafeEqualText(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb) && a.length === b.length;
}

export const hmacHex = (algorithm: 'sha256' | 'sha1', secret: string, body: string) => crypto.createHmac(algorithm, secret).update(body, 'utf8').digest('hex');

/** Checks a `sha256=<hex>` signature header (GitHub's X-Hub-Signature-256, Bitbucket's X-Hub-Signature). */
export function verifySha256Signature(signature: string | undefined, secret: string, rawBody: string) {
  if (!signature || !secret) throw new InvalidSignature('Webhook signature is missing');
  if (!timingSafeEqualText(signature.trim().toLowerCase(), `sha256=${hmacHex('sha256', secret, rawBody)}`)) throw new InvalidSignature();
}

export const isZeroSha = (sha: string | null | undefined) => !sha || /^0+$/.test(sha);
export const looksLikeSha = (ref: string) => /^[0-9a-f]{7,40}$/i.test(ref);

/** "owner/name" → "owner/name" with each segment URL-encoded (for path-style APIs). */
export const repoPath = (fullName: string) => fullName.split('/').map(encodeURIComponent).join('/');

/** The URL of rel="next" in a Link header. */
export function nextLink(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = part.match(/<([^>]+)>\s*;\s*rel="?next"?/);
    if (m) return m[1];
  }
  return undefined;
}

/** A repository URL with https credentials in it (the token is URL-encoded). */
export function withCredentials(repoUrl: string, user: string, token: string): string {
  const u = new URL(repoUrl);
  u.username = encodeURIComponent(user);
  u.password = encodeURIComponent(token);
  return u.toString();
}

export const MAX_PAGES = 100;

/** A small fetch wrapper per provider: auth header, JSON, provider errors, optional 404 → null. */
export function providerHttp(provider: GitProvider, authHeaders: (token: string) => Record<string, string>) {
  async function send(
    url: string,
    o: { token?: string; method?: string; json?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { 'user-agent': 'Gantry', ...(o.token ? authHeaders(o.token) : {}), ...o.headers };
    let body: string | undefined;
    if (o.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(o.json);
    } else if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(o.form).toString();
    }
    try {
      return await fetch(url, { method: o.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, redirect: 'follow' });
    } catch (err) {
      throw new GitProviderError(provider, 0, `${provider} could not be reached: ${(err as Error).message}`);
    }
  }

  async function fail(res: Response): Promise<never> {
    const text = await res.text().catch(() => '');
    let message = text.slice(0, 300) || res.statusText;
    try {
      const j = JSON.parse(text) as { message?: unknown; error?: unknown; error_description?: unknown };
      const e = j.error as { message?: string } | string | undefined;
      message = String(j.error_description ?? j.message ?? (typeof e === 'object' ? e?.message : e) ?? message);
    } catch {
      /* not JSON */
    }
    throw new GitProviderError(provider, res.status, `${provider} answered ${res.status}: ${message}`);
  }

  return {
    send,
    fail,
    async json<T>(url: string, o: Parameters<typeof send>[1] = {}): Promise<{ data: T; res: Response }> {
      const res = await send(url, { ...o, headers: { accept: 'application/json', ...o.headers } });
      if (!res.ok) await fail(res);
      return { data: (await res.json()) as T, res };
    },
    /** JSON, or null on 404. */
    async jsonOrNull<T>(url: string, o: Parameters<typeof send>[1] = {}): Promise<T | null> {
      const res = await send(url, { ...o, headers: { accept: 'application/json', ...o.headers } });
      if (res.status === 404) return null;
      if (!res.ok) await fail(res);
      return (await res.json()) as T;
    },
    async ok(url: string, o: Parameters<typeof send>[1] & { allow404?: boolean } = {}): Promise<void> {
      const res = await send(url, o);
      if (res.ok || (o.allow404 && res.status === 404)) {
        await res.body?.cancel();
        return;
      }
      await fail(res);
    },
  };
}

/** Reads an OAuth token answer (JSON or form-encoded), with `error` answers turned into a provider error. */
export async function readTokenAnswer(provider: GitProvider, res: Response): Promise<TokenSet> {
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = Object.fromEntries(new URLSearchParams(text));
  }
  if (!res.ok || body.error || typeof body.access_token !== 'string') {
    const message = String(body.error_description ?? body.error ?? (body.message as string | undefined) ?? `status ${res.status}`);
    throw new GitProviderError(provider, res.ok ? 400 : res.status, `${provider} did not accept the authorization: ${message}`);
  }
  const expiresIn = Number(body.expires_in);
  return {
    accessToken: body.access_token,
    ...(typeof body.refresh_token === 'string' && body.refresh_token ? { refreshToken: body.refresh_token } : {}),
    ...(Number.isFinite(expiresIn) && expiresIn > 0 ? { expiresAt: new Date(Date.now() + expiresIn * 1000) } : {}),
  };
}

/** Paths changed by a list of webhook commits (added, modified and removed), without duplicates. */
export function filesOfCommits(commits: { added?: string[]; modified?: string[]; removed?: string[] }[]): string[] {
  const files = new Set<string>();
  for (const c of commits) for (const f of [...(c.added ?? []), ...(c.modified ?? []), ...(c.removed ?? [])]) files.add(f);
  return [...files];
}

/** Webhook bodies are JSON, or (GitHub hooks set to form content) `payload=<json>`. */
export function parseWebhookJson(rawBody: string): any {
  const text = rawBody.startsWith('payload=') ? (new URLSearchParams(rawBody).get('payload') ?? '') : rawBody;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
