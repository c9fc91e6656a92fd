/**
 * GitHub sign-in in headless Chromium (issue 2): /login → "Sign in with GitHub" → the provider's
 * authorize page (the stand-in speaking GitHub's OAuth wire format) → back to /login?code=… → signed in.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { startGitStandin } from '@gantry/test-support/git-standin/index';
import { localStorageItem, useStack } from './src/harness.js';

const standin = await startGitStandin({ providers: ['github'] });
afterAll(async () => standin.close());

describe('GitHub sign-in', () => {
  const stack = useStack({ env: standin.env });

  test('a new user signs in with GitHub and lands on /projects with a session', async () => {
    const page = await stack.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await page.waitForURL('**/projects');
    const profile = JSON.parse((await localStorageItem(page, 'profile')) ?? '{}');
    expect(profile.email).toBe(standin.user('github').email.toLowerCase());
    expect(await localStorageItem(page, 'idToken')).toBeTruthy();
    await page.getByText('Start Building!').waitFor();
  });

  test("a refused authorization shows the provider's reason up to its first semicolon", async () => {
    const page = await stack.newPage();
    await page.goto('/login?error=access_denied&error_description=The+user+has+denied+your+application+access.%3B+see+docs');
    await page.getByText('The user has denied your application access.', { exact: true }).waitFor();
  });
});
