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

  test('a git account connection that comes back to a browser without a session does not sign it in with its code', async () => {
    const page = await stack.newPage();
    const { github } = (await (await fetch(`${stack.url}/ms-usermanagement/auth/providers`)).json()) as { github: { authorizeUrl: string } };
    // the provider sends the connection's code back to the settings page, where the login shows in place
    await page.goto(`${github.authorizeUrl}&redirect_uri=${encodeURIComponent(`${stack.url}/settings?tab=git&type=github`)}`);
    await page.waitForURL(/\/settings\?.*code=/);
    await page.getByRole('button', { name: 'Sign in with GitHub' }).waitFor();
    await page.waitForTimeout(1_000); // what a sign-in with the code would take
    expect(await localStorageItem(page, 'idToken')).toBeNull();
    expect(page.url()).toContain('/settings?');
  });

  test("a refused authorization shows the provider's reason up to its first semicolon", async () => {
    const page = await stack.newPage();
    await page.goto('/login?error=access_denied&error_description=The+user+has+denied+your+application+access.%3B+see+docs');
    await page.getByText('The user has denied your application access.', { exact: true }).waitFor();
  });
});
