import type { GitProvider } from '@gantry/contracts';
import { rememberOnce, takeOnce } from '../../api/remembered-once';

/**
 * The project a Git account connection was started from, remembered under the OAuth state the web sends to the
 * provider (the spec's 'redirect:portal', which the provider hands back beside the code) and the account type.
 * The callback's address is the spec's /settings?tab=git&type=… and names no project, and a login shown in place
 * there (a session that expired meanwhile) re-picks the current project: this is how the connection still joins
 * the project it was started from. Kept in this browser's storage for an hour, and read once.
 */
const PREFIX = 'gantry:git-connect:';
const browserStorage = () => localStorage;
export const CONNECT_ORIGIN_TTL_MS = 60 * 60_000;

const keyOf = (state: string, type: GitProvider) => `${PREFIX}${type}:${state}`;

/** The state of a provider's authorize URL ('' when it names none). */
export const stateOf = (authorizeUrl: string) => new URL(authorizeUrl).searchParams.get('state') ?? '';

export function rememberConnectOrigin(state: string, type: GitProvider, projectId: string, now = Date.now()) {
  rememberOnce(browserStorage, keyOf(state, type), projectId, now);
}

/** The project remembered for this state and type, if any and not older than the TTL; the entry is removed. */
export const takeConnectOrigin = (state: string, type: GitProvider, now = Date.now()): string | null =>
  takeOnce(browserStorage, keyOf(state, type), CONNECT_ORIGIN_TTL_MS, now);
