import type { RefreshAnswer } from '@gantry/contracts';
import { ApiError, isSessionInvalid, isTokenExpired } from './errors';
import { session } from './session';

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  signal?: AbortSignal;
  /**
   * Sends the bearer token and applies the 401 rules of spec §8 (default true).
   * Public auth calls (login, sign-up…) pass false: their 401 is a message for the form, not a logout.
   */
  auth?: boolean;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The server's mark on the 503 it answers while starting, and how long calls wait for it to be ready. */
const STARTING_HEADER = 'x-gantry-starting';
const STARTING_WAIT_MS = 120_000;

function buildUrl(path: string, query?: RequestOptions['query']) {
  // Same origin: the API and the SPA are served together (vite proxies /ms-* in dev).
  const url = new URL(path, window.location.origin);
  if (query) {
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') url.searchParams.set(k, String(v));
  }
  return url.pathname + url.search;
}

async function send(method: Method, path: string, opts: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const url = buildUrl(path, opts.query);
  const body = opts.body !== undefined ? JSON.stringify(opts.body) : undefined;
  for (let waited = 0; ;) {
    const res = await fetch(url, { method, headers, body, signal: opts.signal });
    // Gantry is still starting (platform/front-door.ts): nothing was done with the call, so it is sent again.
    if (res.status !== 503 || !res.headers.has(STARTING_HEADER) || waited >= STARTING_WAIT_MS) return res;
    const pause = Math.min(Number(res.headers.get('retry-after') ?? 1) || 0, 5) * 1000;
    await new Promise((r) => setTimeout(r, pause));
    waited += Math.max(pause, 100);
  }
}

async function parse<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = { message: '' };
    }
  }
  if (!res.ok) throw new ApiError(res.status, (body && typeof body === 'object' ? body : {}) as Record<string, unknown>);
  return body as T;
}

// ---- single-flight token refresh (spec §8) -------------------------------------------------

let refreshing: Promise<string | null> | null = null;

async function doRefresh(): Promise<string | null> {
  const refreshToken = session.refreshToken();
  if (!refreshToken) return null;
  try {
    const res = await send('POST', '/ms-usermanagement/auth/refresh', { body: { refreshToken } }, session.idToken());
    const answer = await parse<RefreshAnswer | undefined>(res);
    if (!answer || !answer.idToken) return null;
    // Refresh tokens rotate: keep the new one.
    session.saveTokens({ idToken: answer.idToken, refreshToken: answer.refreshToken ?? refreshToken, expiresIn: answer.expiresIn });
    return answer.idToken;
  } catch (e) {
    if (e instanceof ApiError && isSessionInvalid(e)) logout();
    return null;
  }
}

/** Only one refresh at a time: every request that meets an expired token waits for the same one. */
export function refreshIdToken(): Promise<string | null> {
  if (!refreshing) {
    refreshing = doRefresh().finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

/** Ends the session locally and shows the login page. */
export function logout() {
  session.clear();
  if (window.location.pathname !== '/login') window.location.assign('/login');
}

// ---- the client ---------------------------------------------------------------------------------

export async function request<T>(method: Method, path: string, opts: RequestOptions = {}): Promise<T> {
  const auth = opts.auth !== false;
  const token = auth ? session.idToken() : null;
  // A refresh already running: queue behind it instead of sending a token known to be stale.
  const firstToken = auth && refreshing ? ((await refreshing) ?? token) : token;
  const res = await send(method, path, opts, firstToken);
  try {
    return await parse<T>(res);
  } catch (e) {
    if (!auth || !(e instanceof ApiError) || e.status !== 401) throw e;
    if (isTokenExpired(e)) {
      // Another request may have refreshed meanwhile: use its token, else refresh (single-flight).
      const current = session.idToken();
      const fresh = current && current !== firstToken ? current : await refreshIdToken();
      if (!fresh) throw e;
      const retry = await send(method, path, opts, fresh);
      try {
        return await parse<T>(retry);
      } catch (again) {
        if (again instanceof ApiError && isSessionInvalid(again)) logout();
        throw again;
      }
    }
    if (isSessionInvalid(e)) logout();
    throw e;
  }
}

export const http = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('POST', path, { ...opts, body: body ?? {} }),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, { ...opts, body: body ?? {} }),
  patch: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PATCH', path, { ...opts, body: body ?? {} }),
  delete: <T>(path: string, opts?: RequestOptions) => request<T>('DELETE', path, opts),
};
