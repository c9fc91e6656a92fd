import { AppError } from '../../platform/errors.js';

/** Failed logins one account may have before it is locked. */
const FREE_FAILURES = 5;
const FIRST_LOCK_MS = 30_000;
const MAX_LOCK_MS = 15 * 60_000;
/** Failures older than this are forgotten: a mistyped password now and then never adds up to a lock. */
const FORGET_AFTER_MS = 24 * 3_600_000;

const inWords = (seconds: number) => (seconds < 90 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`);

export class AccountLocked extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(
      429,
      `Too many failed logins for this account. Please try again in ${inWords(retryAfterSeconds)}, or reset your password.`,
      'TooManyRequestsException',
      { retryAfterSeconds },
    );
  }
}

interface Account {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
}

/**
 * The per-account brake on password guessing, beside the per-address rate limit: whoever the
 * client, after FREE_FAILURES failed logins an account is refused for 30 s, doubling with each
 * further failure up to 15 min; a successful login forgets it. Keyed by the e-mail as typed, so an
 * unknown address is locked the same way and the limit does not tell who has an account.
 *
 * The counts live in memory, per process: with several API processes an attacker gets up to
 * FREE_FAILURES per process before the lock (still a brake, together with the per-address
 * limit). Sharing them needs a table (login_failures: email, failures, last_failure_at,
 * locked_until); the methods are async so such a store can replace this one unchanged.
 */
export function createLoginThrottle(opts: { now?: () => number; maxAccounts?: number } = {}) {
  const now = opts.now ?? Date.now;
  const maxAccounts = opts.maxAccounts ?? 100_000;
  const accounts = new Map<string, Account>();

  return {
    /**
     * Refuses a locked account, else counts this attempt as failed until `succeeded` says otherwise.
     * Counting before the password check (in the same tick as the lock check) keeps a burst of
     * parallel guesses from all passing the check before any of them has failed.
     */
    async attempt(email: string): Promise<void> {
      const key = email.toLowerCase();
      const at = now();
      const known = accounts.get(key);
      if (known && known.lockedUntil > at) throw new AccountLocked(Math.ceil((known.lockedUntil - at) / 1000));
      const failures = known && at - known.lastFailureAt < FORGET_AFTER_MS ? known.failures + 1 : 1;
      const lockMs = failures >= FREE_FAILURES ? Math.min(FIRST_LOCK_MS * 2 ** (failures - FREE_FAILURES), MAX_LOCK_MS) : 0;
      // Re-inserted so the map's order is least recently failed first: the first key is the one to drop.
      accounts.delete(key);
      accounts.set(key, { failures, lastFailureAt: at, lockedUntil: lockMs ? at + lockMs : 0 });
      if (accounts.size > maxAccounts) accounts.delete(accounts.keys().next().value!);
    },
    async succeeded(email: string): Promise<void> {
      accounts.delete(email.toLowerCase());
    },
    /** Accounts with failures on record (tests check the memory stays bounded). */
    size: () => accounts.size,
  };
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
