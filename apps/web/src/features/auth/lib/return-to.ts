/**
 * The page a login shown in place was on, for the ways out of it that leave that page: the GitHub sign-in (the whole
 * page goes to the provider and comes back to /login) and the new-password challenge (/account/set-password/…).
 * Where they end, the user goes back to that page with its query instead of /projects. Kept in this tab's session
 * storage for half an hour, and read once.
 */
import { rememberOnce, takeOnce } from '../../../api/remembered-once';

const KEY = 'gantry:after-login';
const tabStorage = () => sessionStorage;
export const RETURN_TO_TTL_MS = 30 * 60_000;

/** Only a path of this app: not another origin (//host), not the login itself. */
const isAppPath = (path: string) => path.startsWith('/') && !path.startsWith('//') && !/^\/login(?:[?#]|$)/.test(path);

export function rememberReturnTo(path: string, now = Date.now()) {
  if (isAppPath(path)) rememberOnce(tabStorage, KEY, path, now);
}

/** The remembered page, if any and not older than the TTL; forgotten either way. */
export function takeReturnTo(now = Date.now()): string | null {
  const path = takeOnce(tabStorage, KEY, RETURN_TO_TTL_MS, now);
  return path && isAppPath(path) ? path : null;
}
