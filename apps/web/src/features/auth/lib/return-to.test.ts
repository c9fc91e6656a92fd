import { beforeEach, describe, expect, it } from 'vitest';
import { RETURN_TO_TTL_MS, rememberReturnTo, takeReturnTo } from './return-to';

const store = new Map<string, string>();
Object.assign(globalThis, {
  sessionStorage: {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => store.set(k, v),
    removeItem: (k: string) => store.delete(k),
  },
});
beforeEach(() => store.clear());

describe('the page an in-place login goes back to', () => {
  it('is read once, with its query', () => {
    rememberReturnTo('/settings?tab=git&code=c1&type=github', 1_000);
    expect(takeReturnTo(2_000)).toBe('/settings?tab=git&code=c1&type=github');
    expect(takeReturnTo(2_000)).toBeNull();
  });

  it('is only a path of this app, other than the login', () => {
    for (const path of ['//evil.example/x', 'https://evil.example/', '/login', '/login?code=x']) {
      rememberReturnTo(path, 0);
      expect(takeReturnTo(0)).toBeNull();
    }
    rememberReturnTo('/login-history', 0);
    expect(takeReturnTo(0)).toBe('/login-history');
  });

  it('is forgotten after its TTL', () => {
    rememberReturnTo('/overview', 0);
    expect(takeReturnTo(RETURN_TO_TTL_MS + 1)).toBeNull();
    expect(store.size).toBe(0);
  });
});
