import type { LoginAnswer } from '@gantry/contracts';
import { session } from '../../../api/session';
import { queryClient } from '../../../api/query-client';
import { toast } from '../../../api/toast';

/** Stores a successful login answer (tokens, expiry, profile); a new user starts with a clean cache and no toast of a failed attempt. */
export function completeLogin(answer: Extract<LoginAnswer, { done: true }>) {
  queryClient.clear();
  toast.clear();
  session.saveTokens(answer);
  session.saveProfile(answer.profile);
}

/** Where a NEW_PASSWORD_REQUIRED challenge goes: the set-password screen with username and session token. */
export const setPasswordPath = (username: string, sessionToken: string) =>
  `/account/set-password/${encodeURIComponent(username)}/${encodeURIComponent(sessionToken)}`;

/** An OAuth error_description is shown up to its first semicolon (spec §8). */
export const oauthErrorText = (description: string) => description.split(';')[0]!.trim();

/** Forgot-password errors: the message with its first underscore replaced by a space, or the fallback (spec §8). */
export const FORGOT_PASSWORD_FALLBACK = 'Something went wrong with resetting your password!';
export const forgotPasswordErrorText = (message: string | undefined) => (message ? message.replace('_', ' ') : FORGOT_PASSWORD_FALLBACK);
