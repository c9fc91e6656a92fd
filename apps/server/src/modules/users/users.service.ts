import crypto from 'node:crypto';
import { hash as argonHash, verify as argonVerify, type Options as ArgonOptions } from '@node-rs/argon2';
import {
  type ChangePasswordBody,
  WRONG_OLD_PASSWORD,
  CODE_TTL_MINUTES,
  REFRESH_TOKEN_TTL_DAYS,
  AUTH_ERROR,
  type SignUpBody,
  type LoginAnswer,
  type Profile,
  type SetPasswordBody,
  type ConfirmForgotPasswordBody,
  type UpdateProfileBody,
} from '@gantry/contracts';
import type { Db } from '../../platform/db.js';
import type { Mailer } from '../../platform/mail.js';
import type { IdTokens } from '../../platform/tokens.js';
import { NotFound, Unauthorized, Validation, Upstream } from '../../platform/errors.js';
import { hashToken, randomToken } from '../../platform/secrets.js';
import type { UsersStore, UserRow, CodePurpose } from './users.store.js';
import * as mails from './users.mails.js';
import { createLoginThrottle, type LoginThrottle } from './login-throttle.js';
import type { GithubIdentity } from '../../integrations/github/github-identity.js';

// 2 is Argon2id (the package's const enum cannot be imported under isolatedModules).
const ARGON: ArgonOptions = { algorithm: 2 as ArgonOptions['algorithm'] };
const minutes = (n: number) => new Date(Date.now() + n * 60_000);
const BAD_LOGIN = 'Incorrect username or password.';
/** How long after its request a forgot-password request is answered, whether the address has an account or not. */
export const FORGOT_PASSWORD_ANSWER_MS = 250;
/** A refresh token reused within this window (two tabs refreshing at once) is not taken for theft. */
const ROTATION_GRACE_MS = 10_000;

export function toProfile(u: UserRow): Profile {
  return { id: u.id, email: u.email, firstName: u.firstName, lastName: u.lastName, status: u.status, isInstanceAdmin: u.isInstanceAdmin };
}

/** A random password that meets the password rules, for invitations. */
export function temporaryPassword(): string {
  const base = crypto.randomBytes(9).toString('base64url').replace(/[-_]/g, 'x');
  return `${base}Aa1`;
}

export function createUsersService(deps: {
  db: Db;
  store: UsersStore;
  mailer: Mailer;
  idTokens: IdTokens;
  baseUrl: () => string;
  github: GithubIdentity | null;
  /** Derives each rotated refresh token's successor (see successorOf). */
  refreshSuccessorKey: Uint8Array;
  loginThrottle?: LoginThrottle;
  /** Told when a user's tokens were ended (log-out, a new password): their open sockets must end too. */
  tokensEnded?: (userId: string) => void;
}) {
  const { db, store, mailer, idTokens } = deps;
  const loginThrottle = deps.loginThrottle ?? createLoginThrottle();
  let dummyHash: Promise<string> | undefined;

  async function newCode(userId: string, purpose: CodePurpose, tx: Parameters<UsersStore['addCode']>[1] = db) {
    const code = randomToken(24);
    await store.addCode({ userId, purpose, codeHash: hashToken(code), expiresAt: minutes(CODE_TTL_MINUTES[purpose]) }, tx);
    return code;
  }

  const refreshTokenRow = (userId: string, familyId: string, token: string) => ({
    userId,
    familyId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * 86_400_000),
  });

  /**
   * The refresh token that replaces `token` when it rotates. Derived (HMAC with a server key), not
   * random: only hashes are stored, and a reuse inside the grace window must answer the very same
   * successor, never start a second live branch of the family.
   */
  const successorOf = (token: string) => crypto.createHmac('sha256', deps.refreshSuccessorKey).update(token).digest('base64url');

  const signIdToken = (user: UserRow) => idTokens.sign({ sub: user.id, email: user.email }, { issuedAfter: user.tokensValidAfter });

  async function issueTokens(user: UserRow) {
    const refreshToken = randomToken(32);
    await store.addRefreshToken(refreshTokenRow(user.id, crypto.randomUUID(), refreshToken));
    return { idToken: await signIdToken(user), refreshToken, expiresIn: idTokens.ttlSeconds };
  }

  async function loggedIn(user: UserRow): Promise<LoginAnswer> {
    return { done: true, ...(await issueTokens(user)), profile: toProfile(user) };
  }

  /** A new password ends every id token issued before it (they would otherwise live out their 15 minutes). */
  async function newPassword(password: string) {
    return { passwordHash: await argonHash(password, ARGON), tokensValidAfter: new Date() };
  }

  async function sendVerification(user: UserRow) {
    await store.expireCodes(user.id, ['verify']);
    const code = await newCode(user.id, 'verify');
    await mailer.send(mails.verificationMail(deps.baseUrl(), user.email, user.firstName, code));
  }

  async function passwordMatches(user: UserRow | undefined, password: string) {
    if (!user?.passwordHash) {
      await argonVerify(await (dummyHash ??= argonHash('not-a-real-password', ARGON)), password).catch(() => false);
      return false;
    }
    return argonVerify(user.passwordHash, password).catch(() => false);
  }

  return {
    toProfile,

    /**
     * Answers the same whether the address is new or taken, so sign-up does not tell who has an
     * account; the owner of a taken address gets a mail instead (the password is hashed either way).
     */
    async signUp(body: SignUpBody) {
      const existing = await store.byEmail(body.username);
      const password = await newPassword(body.password);
      if (existing && existing.status !== 'UNCONFIRMED') {
        await mailer.send(mails.signUpAttemptMail(deps.baseUrl(), existing.email, existing.firstName));
        return;
      }
      const user = existing
        ? (await store.update(existing.id, { ...password, firstName: body.firstName, lastName: body.lastName }))!
        : await store.insert({
            email: body.username,
            passwordHash: password.passwordHash,
            firstName: body.firstName,
            lastName: body.lastName,
            status: 'UNCONFIRMED',
            isInstanceAdmin: (await store.count()) === 0,
          });
      await sendVerification(user);
    },

    async activate(username: string, code: string) {
      const user = await store.byEmail(username);
      if (user && (await store.takeCode(user.id, hashToken(code), ['verify']))) return void (await store.update(user.id, { status: 'CONFIRMED' }));
      // a link of the mails a verified account was sent (the one it was verified with, opened again): it is verified
      if (!user || user.status !== 'CONFIRMED' || !(await store.codeOf(user.id, hashToken(code), 'verify')))
        throw new Validation('We were not able to verify your email!', undefined, 'CodeMismatchException');
    },

    async login(username: string, password: string): Promise<LoginAnswer> {
      await loginThrottle.attempt(username);
      const user = await store.byEmail(username);
      if (!(await passwordMatches(user, password))) throw new Unauthorized(BAD_LOGIN);
      await loginThrottle.succeeded(username);
      if (user!.status === 'UNCONFIRMED') {
        await sendVerification(user!);
        throw new Validation('Your e-mail address is not verified yet. We sent you a new verification link.', undefined, 'UserNotConfirmedException');
      }
      if (user!.status === 'FORCE_CHANGE_PASSWORD') {
        return { done: false, challengeName: 'NEW_PASSWORD_REQUIRED', sessionToken: await newCode(user!.id, 'session') };
      }
      return loggedIn(user!);
    },

    async loginWithGithub(code: string): Promise<LoginAnswer> {
      if (!deps.github) throw new Validation('GitHub sign-in is not configured on this Gantry instance.');
      const identity = await deps.github.identify(code).catch((err: Error) => {
        throw new Upstream(err.message);
      });
      let user = (await store.byGithubId(identity.id)) ?? (await store.byEmail(identity.email));
      if (!user) {
        user = await store.insert({
          email: identity.email,
          githubId: identity.id,
          firstName: identity.firstName,
          lastName: identity.lastName,
          status: 'CONFIRMED',
          isInstanceAdmin: (await store.count()) === 0,
        });
      } else {
        // A verified GitHub e-mail proves the address, so a pending or unverified account becomes usable.
        user = (await store.update(user.id, { githubId: identity.id, status: 'CONFIRMED' }))!;
      }
      return loggedIn(user);
    },

    /**
     * Mails a reset link to a verified account; answers the same, in the same time, for any other address: the
     * link and its mail took milliseconds more than nothing (6 against 2, 29 against 6), enough to tell who has an
     * account. So the answer waits until FORGOT_PASSWORD_ANSWER_MS after the request whichever the address (the
     * route's rate limit keeps the wait from costing anything but the asker's time).
     */
    async forgotPassword(username: string) {
      const answerAt = Date.now() + FORGOT_PASSWORD_ANSWER_MS;
      try {
        const user = await store.byEmail(username);
        if (!user || user.status !== 'CONFIRMED') return; // never tell who has an account
        await store.expireCodes(user.id, ['reset']);
        const code = await newCode(user.id, 'reset');
        await mailer.send(mails.resetMail(deps.baseUrl(), user.email, code));
      } finally {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, answerAt - Date.now())));
      }
    },

    async confirmForgotPassword(body: ConfirmForgotPasswordBody) {
      const user = await store.byEmail(body.username);
      const taken = user && (await store.takeCode(user.id, hashToken(body.code), ['reset']));
      if (!user || !taken || taken.userId !== user.id) {
        throw new Validation('Invalid or expired recovery link. Please request a new one.', undefined, 'CodeMismatchException');
      }
      await store.update(user.id, await newPassword(body.password));
      await store.revokeAllForUser(user.id);
      deps.tokensEnded?.(user.id);
      await loginThrottle.succeeded(user.email); // the mailbox is proven: a lock from someone's guesses ends
    },

    async setPassword(body: SetPasswordBody): Promise<LoginAnswer> {
      const user = await store.byEmail(body.username);
      const taken = user && (await store.takeCode(user.id, hashToken(body.sessionToken), ['session', 'invite']));
      if (!user || !taken || taken.userId !== user.id) {
        throw new Unauthorized('Invalid session for the user, session is expired.', 'NotAuthorizedException');
      }
      const updated = await store.update(user.id, {
        ...(await newPassword(body.newPassword)),
        status: 'CONFIRMED',
        ...(body.firstName ? { firstName: body.firstName } : {}),
        ...(body.lastName ? { lastName: body.lastName } : {}),
      });
      await store.expireCodes(user.id, ['session', 'invite']);
      return loggedIn(updated!);
    },

    /**
     * Rotates a refresh token: it is marked rotated and its successor stored, in one transaction
     * holding the row lock, so concurrent refreshes with one token all see the first rotation. A
     * reuse inside ROTATION_GRACE_MS answers that same successor (and a fresh id token); a later one
     * is taken for theft and ends the family.
     */
    async refresh(refreshToken: string, bearer: string | null) {
      const bearerSubject = bearer ? await idTokens.subjectIgnoringExpiry(bearer) : null;
      const successor = successorOf(refreshToken);
      const found = await db.transaction(async (tx) => {
        const row = await store.refreshTokenByHash(hashToken(refreshToken), tx);
        if (!row || row.revokedAt || row.expiresAt < new Date()) return null;
        // Checked before rotating, so a mismatched session does not burn the token.
        if (bearer && bearerSubject !== row.userId) return 'other-session' as const;
        if (!row.rotatedAt) {
          await store.markRotated(row.id, tx);
          await store.addRefreshToken(refreshTokenRow(row.userId, row.familyId, successor), tx);
          return row;
        }
        if (Date.now() - row.rotatedAt.getTime() > ROTATION_GRACE_MS) {
          await store.revokeFamily(row.familyId, tx); // an old token came back: assume it leaked
          return null;
        }
        const next = await store.refreshTokenByHash(hashToken(successor), tx);
        return next && !next.revokedAt && next.expiresAt > new Date() ? row : null;
      });
      if (found === 'other-session') throw new Unauthorized('Refresh token does not belong to this session', 'NotAuthorizedException');
      if (!found) throw new Unauthorized('Invalid Refresh Token', 'NotAuthorizedException');
      const user = await store.byId(found.userId);
      if (!user || user.status !== 'CONFIRMED') throw new Unauthorized('User is disabled.', 'NotAuthorizedException');
      return { idToken: await signIdToken(user), refreshToken: successor, expiresIn: idTokens.ttlSeconds };
    },

    /** Ends the refresh-token family and, at once, the user's id tokens (tokensValidAfter). */
    async logout(refreshToken: string) {
      const row = await store.refreshTokenByHash(hashToken(refreshToken));
      if (!row) return;
      await store.revokeFamily(row.familyId);
      await store.update(row.userId, { tokensValidAfter: new Date() });
      deps.tokensEnded?.(row.userId);
    },

    async me(userId: string) {
      const user = await store.byId(userId);
      if (!user) throw new Unauthorized('User does not exist.', AUTH_ERROR.notAuthorized);
      return toProfile(user);
    },

    async updateMe(userId: string, body: UpdateProfileBody) {
      const user = await store.update(userId, body);
      if (!user) throw new NotFound('User not found');
      return toProfile(user);
    },

    /**
     * My Account → Password: the old password must match (wrong guesses count as failed logins). Every other
     * session of the user ends — their refresh tokens are revoked and id tokens issued before now stop
     * counting — and this one goes on with the fresh tokens answered here. A reset link mailed before
     * no longer works: whoever holds it would otherwise set a password over the one just chosen.
     */
    async changePassword(userId: string, body: ChangePasswordBody) {
      const user = await store.byId(userId);
      if (!user) throw new Unauthorized('User does not exist.', AUTH_ERROR.notAuthorized);
      await loginThrottle.attempt(user.email);
      if (!(await passwordMatches(user, body.oldPassword))) throw new Validation(WRONG_OLD_PASSWORD, { oldPassword: [WRONG_OLD_PASSWORD] });
      await loginThrottle.succeeded(user.email);
      const updated = await store.update(user.id, await newPassword(body.newPassword));
      await store.expireCodes(user.id, ['reset']);
      await store.revokeAllForUser(user.id);
      deps.tokensEnded?.(user.id);
      return issueTokens(updated!);
    },

    byIds: (ids: string[]) => store.byIds(ids),
    byEmail: (email: string) => store.byEmail(email),

    /**
     * The user an invitation goes to: an existing account as it is, or a new pending one
     * with a temporary password and a one-time completion token (both e-mailed by the caller).
     */
    async prepareInvitee(email: string) {
      const existing = await store.byEmail(email);
      if (existing && existing.status !== 'UNCONFIRMED') return { user: existing, credentials: null };
      const password = temporaryPassword();
      const credentials = await newPassword(password);
      const user = existing
        ? (await store.update(existing.id, { status: 'FORCE_CHANGE_PASSWORD', ...credentials }))!
        : await store.insert({ email, passwordHash: credentials.passwordHash, status: 'FORCE_CHANGE_PASSWORD' });
      const token = await newCode(user.id, 'invite');
      return { user, credentials: { temporaryPassword: password, token } };
    },

    /** A new temporary password and token for a still pending user (resend). */
    async renewInvitation(user: UserRow) {
      await store.expireCodes(user.id, ['invite', 'session']);
      const password = temporaryPassword();
      await store.update(user.id, await newPassword(password));
      return { temporaryPassword: password, token: await newCode(user.id, 'invite') };
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
