import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { messages, WRONG_OLD_PASSWORD } from '@gantry/contracts';
import { createTestApp, registerUser, login, bearer, PASSWORD, type TestApp } from '../../../test/helpers.js';

/** My Account (/account): Update Profile and Update Password (the other sessions end). */
let t: TestApp;
const EMAIL = 'account-user@example.com';

beforeAll(async () => {
  t = await createTestApp();
  await registerUser(t, EMAIL, { firstName: 'Ada', lastName: 'Before' });
});
afterAll(async () => {
  await t?.close();
});

const me = (idToken: string) => t.app.inject({ method: 'GET', url: '/ms-usermanagement/users/me', headers: bearer(idToken) });
const changePassword = (idToken: string | null, payload: object) =>
  t.app.inject({ method: 'POST', url: '/ms-usermanagement/users/me/password', headers: idToken ? bearer(idToken) : {}, payload });
const refresh = (refreshToken: string) => t.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/refresh', payload: { refreshToken } });

describe('My Account', () => {
  it('updates first and last name (both required)', async () => {
    const s = await login(t, EMAIL, PASSWORD);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/ms-usermanagement/users/me',
      headers: bearer(s.idToken),
      payload: { firstName: 'Ada', lastName: 'Lovelace' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: EMAIL });
    expect((await me(s.idToken)).json().lastName).toBe('Lovelace');
    const empty = await t.app.inject({
      method: 'PUT',
      url: '/ms-usermanagement/users/me',
      headers: bearer(s.idToken),
      payload: { firstName: ' ', lastName: 'X' },
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields.firstName).toEqual(['First name is required']);
  });

  it('refuses a wrong old password, a new one breaking the rules, and no session', async () => {
    const s = await login(t, EMAIL, PASSWORD);
    const wrong = await changePassword(s.idToken, { oldPassword: 'Nope12345', newPassword: 'Changed123' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fields.oldPassword).toEqual([WRONG_OLD_PASSWORD]);
    const weak = await changePassword(s.idToken, { oldPassword: PASSWORD, newPassword: 'alllowercase1' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().fields.newPassword).toEqual([messages.passwordUpper]);
    expect((await changePassword(null, { oldPassword: PASSWORD, newPassword: 'Changed123' })).statusCode).toBe(401);
    expect((await me(s.idToken)).statusCode).toBe(200); // nothing changed
  });

  it('changes the password: this session goes on with new tokens, every other one ends', async () => {
    const here = await login(t, EMAIL, PASSWORD);
    const elsewhere = await login(t, EMAIL, PASSWORD);
    const res = await changePassword(here.idToken, { oldPassword: PASSWORD, newPassword: 'Changed123' });
    expect(res.statusCode, res.body).toBe(200);
    const fresh = res.json();
    expect((await me(fresh.idToken)).statusCode).toBe(200);
    expect((await refresh(fresh.refreshToken)).statusCode).toBe(200);
    expect((await me(elsewhere.idToken)).statusCode).toBe(401);
    expect((await refresh(elsewhere.refreshToken)).statusCode).toBe(401);
    expect((await refresh(here.refreshToken)).statusCode).toBe(401);
    await expect(login(t, EMAIL, PASSWORD)).rejects.toThrow(/login failed/);
    expect((await login(t, EMAIL, 'Changed123')).idToken).toBeTruthy();
  });
});
