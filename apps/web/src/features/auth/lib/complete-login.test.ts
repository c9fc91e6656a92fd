import { describe, expect, it } from 'vitest';
import { FORGOT_PASSWORD_FALLBACK, forgotPasswordErrorText, oauthErrorText, setPasswordPath } from './complete-login';

describe('auth texts', () => {
  it('shows an OAuth error_description up to the first semicolon', () => {
    expect(oauthErrorText('The user denied access; more details here; and more')).toBe('The user denied access');
    expect(oauthErrorText('No semicolon')).toBe('No semicolon');
  });

  it('replaces only the first underscore of a forgot-password error, with a fallback', () => {
    expect(forgotPasswordErrorText('LIMIT_EXCEEDED_NOW')).toBe('LIMIT EXCEEDED_NOW');
    expect(forgotPasswordErrorText(undefined)).toBe(FORGOT_PASSWORD_FALLBACK);
    expect(FORGOT_PASSWORD_FALLBACK).toBe('Something went wrong with resetting your password!');
  });

  it('builds the set-password path with username and session token', () => {
    expect(setPasswordPath('a+b@x.io', 's/t')).toBe('/account/set-password/a%2Bb%40x.io/s%2Ft');
  });
});
