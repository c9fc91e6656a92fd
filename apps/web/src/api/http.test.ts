import { beforeEach, describe, expect, it } from 'vitest';
import { installFakeBrowser, installFakeFetch, type FakeCall } from './test-browser';

const browser = installFakeBrowser();
const { http } = await import('./http');
const { ApiError } = await import('./errors');
const { session } = await import('./session');

const expired = { status: 401, body: { message: 'jwt expired', code: 'Unauthorized', type: 'TokenExpiredError' } };
const REFRESH = '/ms-usermanagement/auth/refresh';

function signIn(idToken = 'old-id', refreshToken = 'refresh-1') {
  session.saveTokens({ idToken, refreshToken, expiresIn: 900 });
}

beforeEach(() => {
  browser.store.clear();
  browser.assigned.length = 0;
  browser.location.pathname = '/overview';
});

describe('http client', () => {
  it('sends the id token as bearer and parses JSON', async () => {
    signIn('id-1');
    const calls = installFakeFetch(() => ({ status: 200, body: { projects: [] } }));
    await expect(http.get('/ms-project/projects')).resolves.toEqual({ projects: [] });
    expect(calls[0]).toMatchObject({ method: 'GET', url: '/ms-project/projects', auth: 'Bearer id-1' });
  });

  it('sends a call again while the server answers that it is starting, and not after another 503', async () => {
    signIn('id-1');
    const starting = {
      status: 503,
      body: { message: 'Gantry is starting; try again in a moment', code: 'Starting' },
      headers: { 'x-gantry-starting': '1', 'retry-after': '0' },
    };
    let n = 0;
    const calls = installFakeFetch(() => (++n < 3 ? starting : { status: 201, body: { id: 'p1' } }));
    await expect(http.post('/ms-project/projects', { name: 'Shop' })).resolves.toEqual({ id: 'p1' });
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual(Array(3).fill(['POST', '/ms-project/projects', { name: 'Shop' }]));

    const other = installFakeFetch(() => ({ status: 503, body: { message: 'down', code: 'Unavailable' } }));
    await expect(http.get('/ms-project/projects')).rejects.toMatchObject({ status: 503 });
    expect(other).toHaveLength(1);
  });

  it('stores tokens with the expiration date computed from expiresIn seconds', () => {
    const before = Date.now();
    session.saveTokens({ idToken: 'a', refreshToken: 'b', expiresIn: 60 });
    const at = Date.parse(localStorage.getItem('expirationDate')!);
    expect(at).toBeGreaterThanOrEqual(before + 60_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(localStorage.getItem('idToken')).toBe('a');
    expect(localStorage.getItem('refreshToken')).toBe('b');
  });

  it('turns an error body into an ApiError, with the fallback message when there is none', async () => {
    signIn();
    installFakeFetch((c) => (c.url.includes('a') ? { status: 403, body: { message: 'Not allowed', code: 'Forbidden' } } : { status: 500 }));
    const e1 = await http.get('/a').catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(ApiError);
    expect(e1).toMatchObject({ status: 403, message: 'Not allowed', code: 'Forbidden' });
    const e2 = await http.get('/x').catch((e: unknown) => e);
    expect(e2).toMatchObject({ status: 500, message: 'Something went wrong!' });
  });

  it('refreshes an expired token once for concurrent requests and retries each with the new token', async () => {
    signIn('old-id', 'refresh-1');
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const calls = installFakeFetch(async (c: FakeCall) => {
      if (c.url === REFRESH) {
        await gate;
        return { status: 200, body: { idToken: 'new-id', refreshToken: 'refresh-2', expiresIn: 900 } };
      }
      return c.auth === 'Bearer new-id' ? { status: 200, body: { url: c.url } } : expired;
    });
    const all = Promise.all([http.get('/one'), http.get('/two'), http.get('/three')]);
    await new Promise((r) => setTimeout(r, 10));
    release();
    await expect(all).resolves.toEqual([{ url: '/one' }, { url: '/two' }, { url: '/three' }]);
    const refreshes = calls.filter((c) => c.url === REFRESH);
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]).toMatchObject({ body: { refreshToken: 'refresh-1' }, auth: 'Bearer old-id' });
    // Refresh tokens rotate.
    expect(localStorage.getItem('refreshToken')).toBe('refresh-2');
    expect(localStorage.getItem('idToken')).toBe('new-id');
  });

  it('fails the request when there is no refresh token', async () => {
    session.saveTokens({ idToken: 'old-id', refreshToken: '', expiresIn: 900 });
    localStorage.removeItem('refreshToken');
    const calls = installFakeFetch(() => expired);
    await expect(http.get('/one')).rejects.toMatchObject({ status: 401, type: 'TokenExpiredError' });
    expect(calls.some((c) => c.url === REFRESH)).toBe(false);
    expect(browser.assigned).toEqual([]);
  });

  it('fails the request when the refresh returns nothing', async () => {
    signIn();
    installFakeFetch((c) => (c.url === REFRESH ? { status: 200 } : expired));
    await expect(http.get('/one')).rejects.toMatchObject({ status: 401, type: 'TokenExpiredError' });
  });

  it.each([
    ['code NotAuthorizedException', { message: 'Invalid session', code: 'NotAuthorizedException' }],
    ['NotAuthorizedException in the message', { message: 'NotAuthorizedException: token revoked', code: 'Unauthorized' }],
    ['type JsonWebTokenError', { message: 'invalid signature', code: 'Unauthorized', type: 'JsonWebTokenError' }],
  ])('logs out on 401 with %s', async (_name, body) => {
    signIn();
    session.setProject({ id: 'p1', name: 'P' });
    installFakeFetch(() => ({ status: 401, body }));
    await expect(http.get('/one')).rejects.toMatchObject({ status: 401 });
    for (const key of ['idToken', 'refreshToken', 'expirationDate', 'profile', 'project']) expect(localStorage.getItem(key)).toBeNull();
    expect(browser.assigned).toEqual(['/login']);
  });

  it('leaves a public call its 401 (wrong credentials on the login page)', async () => {
    installFakeFetch(() => ({ status: 401, body: { message: 'Incorrect username or password.', code: 'NotAuthorizedException' } }));
    await expect(http.post('/ms-usermanagement/auth/login', { username: 'a', password: 'b' }, { auth: false })).rejects.toMatchObject({
      message: 'Incorrect username or password.',
    });
    expect(browser.assigned).toEqual([]);
  });

  it('adds query values and skips empty ones', async () => {
    signIn();
    const calls = installFakeFetch(() => ({ status: 200, body: {} }));
    await http.get('/ms-usermanagement/outbox', { query: { key: 'k 1', empty: '', none: undefined } });
    expect(calls[0]!.url).toBe('/ms-usermanagement/outbox?key=k+1');
  });
});
