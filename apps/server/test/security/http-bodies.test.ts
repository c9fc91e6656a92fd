import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.js';
import { MAX_JSON_DEPTH, MAX_JSON_ITEMS, jsonShapeRefusal } from '../../src/platform/json-body.js';

/**
 * JSON bombs: a body is parsed before any guard, so anyone may send one to any route. Bodies whose parsing
 * would hold the server (deep nesting, hundreds of thousands of arrays or keys) are refused unparsed; ordinary
 * bodies, brackets inside strings and the existing limits (size, prototype poisoning) are as before.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

// Log-out: no session and no rate limit (anyone may call it, any number of times); it answers ok to any refresh token
const logout = (payload: string) =>
  t.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/logout', payload, headers: { 'content-type': 'application/json' } });
const body = (extra: string) => `{"refreshToken":"not-a-token","extra":${extra}}`;

describe('JSON request bodies', () => {
  it.each([
    ['2,000,000 nested arrays', '['.repeat(2_000_000) + ']'.repeat(2_000_000), `nests deeper than ${MAX_JSON_DEPTH} levels`],
    ['objects nested 65 deep', '{"a":'.repeat(65) + '1' + '}'.repeat(65), `nests deeper than ${MAX_JSON_DEPTH} levels`],
    ['1,000,000 empty arrays', `[${Array(1_000_000).fill('[]').join(',')}]`, `more than ${MAX_JSON_ITEMS} arrays, objects and members`],
    ['an object of 300,000 keys', `{${Array.from({ length: 300_000 }, (_, i) => `"k${i}":0`).join(',')}}`, `more than ${MAX_JSON_ITEMS} arrays`],
  ])('refuses %s unparsed, before any route or guard', async (_what, extra, message) => {
    const res = await logout(body(extra));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: expect.stringContaining(message), code: 'FST_ERR_CTP_INVALID_JSON_BODY' });
  });

  it('parses ordinary bodies as before: brackets in strings, 64 levels, the size and prototype limits', async () => {
    // brackets, quotes and escapes inside strings are text, not structure
    const tricky = JSON.stringify({ s: '[{'.repeat(60_000), q: 'a\\"[[[\\\\', list: Array(1000).fill([1, { a: [2] }]) });
    expect(jsonShapeRefusal(tricky)).toBeNull();
    expect((await logout(body(tricky))).json()).toEqual({ ok: true });
    expect((await logout(body('['.repeat(MAX_JSON_DEPTH - 1) + ']'.repeat(MAX_JSON_DEPTH - 1)))).json()).toEqual({ ok: true });
    const poisoned = await logout('{"refreshToken":"not-a-token","__proto__":{"isInstanceAdmin":true}}');
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json().code).toBe('FST_ERR_CTP_INVALID_JSON_BODY');
    expect((await logout('{')).statusCode).toBe(400);
    expect((await logout(body(`"${'x'.repeat(6 * 1024 * 1024)}"`))).statusCode).toBe(413);
  });
});

describe('other sites', () => {
  it("answers no other origin's preflight or read: no CORS header on the API or a 404", async () => {
    const origin = { origin: 'https://evil.example' };
    for (const url of ['/ms-usermanagement/auth/login', '/ms-ap/projects', '/nowhere']) {
      const preflight = await t.app.inject({ method: 'OPTIONS', url, headers: { ...origin, 'access-control-request-method': 'POST' } });
      const read = await t.app.inject({ method: 'GET', url, headers: origin });
      for (const res of [preflight, read]) {
        expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
        expect(res.headers['access-control-allow-credentials'], url).toBeUndefined();
      }
    }
  });
});
