/**
 * The page a login shown in place was on, for the ways out of it that leave that page: the GitHub sign-in (the whole
 * page goes to the provider and comes back to /login) and the new-password challenge (/account/set-password/…).
 * Where they end, the user goes back to that page with its query instead of /projects. Kept in this tab's session
 * storage for half an hour, and read once.
 */
const KEY = 'gantry:after-login';
export const RETURN_TO_TTL_MS = 30 * 60_000;

/** Only a path of this app: not another origin (//host), not the login itself. */
const isAppPath = (path: string) => path.startsWith('/') && !path.startsWith('//') && !/^\/login(?:[?#]|$)/.test(path);

export function rememberReturnTo(path: string, now = Date.now()) {
  try {
    if (isAppPath(path)) sessionStorage.setItem(KEY, JSON.stringify({ path, at: now }));
  } catch {
    // storage refused: the way out ends on /projects, as before
  }
}

/** The remembered page, if any and not older than the TTL; forgotten either way. */
export function takeReturnTo(now = Date.now()): string | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    sessionStorage.removeItem(KEY);
    const { path, at } = JSON.parse(raw) as { path?: unknown; at?: unknown };
    return typeof path === 'string' && isAppPath(path) && typeof at === 'number' && now - at <= RETURN_TO_TTL_MS ? path : null;
  } catch {
    return null;
  }
}
