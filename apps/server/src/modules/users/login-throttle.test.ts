import { describe, it, expect } from 'vitest';
import { createLoginThrottle, AccountLocked } from './login-throttle.js';

function clock() {
  let now = 1_700_000_000_000;
  return { now: () => now, advance: (seconds: number) => void (now += seconds * 1000) };
}

async function failedAttempts(throttle: ReturnType<typeof createLoginThrottle>, email: string, times: number) {
  for (let i = 0; i < times; i++) await throttle.attempt(email);
}

describe('per-account login throttle', () => {
  it('locks an account after 5 failures, for 30 s, doubling on each further failure up to 15 min', async () => {
    const c = clock();
    const throttle = createLoginThrottle({ now: c.now });
    await failedAttempts(throttle, 'a@example.com', 5);
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      const locked = (await throttle.attempt('a@example.com').catch((e: unknown) => e)) as AccountLocked;
      expect(locked).toBeInstanceOf(AccountLocked);
      expect(locked).toMatchObject({ status: 429, code: 'TooManyRequestsException' });
      waits.push(locked.retryAfterSeconds);
      c.advance(locked.retryAfterSeconds);
      await throttle.attempt('a@example.com'); // the lock is over: one more try, which fails again
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900, 900]);
  });

  it('says how long is left of the lock', async () => {
    const c = clock();
    const throttle = createLoginThrottle({ now: c.now });
    await failedAttempts(throttle, 'a@example.com', 5);
    c.advance(12.5);
    await expect(throttle.attempt('a@example.com')).rejects.toMatchObject({
      retryAfterSeconds: 18,
      message: 'Too many failed logins for this account. Please try again in 18 seconds, or reset your password.',
    });
    c.advance(18);
    await throttle.attempt('a@example.com');
    for (let i = 0; i < 4; i++) {
      c.advance(1000);
      await throttle.attempt('a@example.com').catch(() => undefined);
    }
    await expect(throttle.attempt('a@example.com')).rejects.toMatchObject({ message: expect.stringContaining('try again in 15 minutes') });
  });

  it('keeps accounts apart, ignores the case of the address, and forgets on success', async () => {
    const throttle = createLoginThrottle({ now: clock().now });
    await failedAttempts(throttle, 'A@Example.com', 5);
    await expect(throttle.attempt('a@example.com')).rejects.toBeInstanceOf(AccountLocked);
    await expect(throttle.attempt('b@example.com')).resolves.toBeUndefined();
    await throttle.succeeded('a@example.com');
    await failedAttempts(throttle, 'a@example.com', 5);
    await expect(throttle.attempt('a@example.com')).rejects.toBeInstanceOf(AccountLocked);
  });

  it('forgets failures that are old enough', async () => {
    const c = clock();
    const throttle = createLoginThrottle({ now: c.now });
    await failedAttempts(throttle, 'a@example.com', 4);
    c.advance(24 * 3600);
    await failedAttempts(throttle, 'a@example.com', 4);
    await expect(throttle.attempt('a@example.com')).resolves.toBeUndefined();
  });

  it('stays bounded in memory when many addresses are tried', async () => {
    const throttle = createLoginThrottle({ now: clock().now, maxAccounts: 3 });
    for (const e of ['a', 'b', 'c', 'd']) await failedAttempts(throttle, `${e}@example.com`, 5);
    expect(throttle.size()).toBe(3);
    await expect(throttle.attempt('d@example.com')).rejects.toBeInstanceOf(AccountLocked);
  });
});
