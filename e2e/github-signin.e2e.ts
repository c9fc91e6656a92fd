/**
 * GitHub sign-in in headless Chromium (issue 2): /login → "Sign in with GitHub" → the provider's
 * authorize page (the stand-in speaking GitHub's OAuth wire format) → back to /login?code=… → signed in.
 */
import { afterAll, describe, expect, test } from 'vitest';
import { startGitStandin } from '@gantry/test-support/git-standin/index';
import { artifactsDir, localStorageItem, logInAndOpenProject, temporaryPasswordFrom, useStack, verifiedUser } from './src/harness.js';

const standin = await startGitStandin({ providers: ['github'] });
afterAll(async () => standin.close());

describe('GitHub sign-in', () => {
  const stack = useStack({ env: standin.env, expectedConsoleErrors: [] });

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

  test('a git account connection that comes back to a browser without a session is finished after a password login there', async () => {
    const user = { email: 'connect-later@example.com', password: 'Passw0rd!23', firstName: 'Connie', lastName: 'Later' };
    const idToken = await verifiedUser(stack, user);
    await stack.api('POST', '/ms-project/projects', { name: 'Relay', description: 'Connects later', paymentPlanId: 'STARTER' }, idToken);
    const { github } = await stack.api<{ github: { authorizeUrl: string } }>('GET', '/ms-ap/git-providers', undefined, idToken);
    const authorize = new URL(github.authorizeUrl);
    authorize.searchParams.set('redirect_uri', `${stack.url}/settings?tab=git&type=github`);
    const page = await stack.newPage();
    // the connection was started in another browser (or origin): this one has no session when the provider sends it back
    await page.goto(authorize.toString());
    await page.waitForURL(/\/settings\?.*code=/);
    await page.getByLabel('Username').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('alert').filter({ hasText: 'You have successfully connected your account.' }).waitFor();
    await page.getByText(standin.user('github').login).first().waitFor();
    const url = new URL(page.url());
    expect(url.pathname).toBe('/settings');
    expect(url.searchParams.get('tab')).toBe('git');
    expect(url.searchParams.get('code')).toBeNull();
    // signed in as the user who typed the password, not as the GitHub user
    expect(JSON.parse((await localStorageItem(page, 'profile')) ?? '{}').email).toBe(user.email);
  });

  test('a git account connection finished after a login in place joins the project it was started from', async () => {
    const user = { email: 'two-projects@example.com', password: 'Passw0rd!23', firstName: 'Tess', lastName: 'Two' };
    const idToken = await verifiedUser(stack, user);
    for (const name of ['Alpha', 'Beta']) await stack.api('POST', '/ms-project/projects', { name, description: name, paymentPlanId: 'STARTER' }, idToken);
    const { projects } = await stack.api<{ projects: { id: string; name: string }[] }>('GET', '/ms-project/projects', undefined, idToken);
    const idOf = (name: string) => projects.find((p) => p.name === name)!.id;
    const accountsOf = async (name: string) =>
      (await stack.api<{ gitAccounts: { accountName: string }[] }>('GET', `/ms-ap/projects/${idOf(name)}/git-accounts`, undefined, idToken)).gitAccounts;

    const page = await stack.newPage();
    // the second project of the list is opened, and the connection started there
    await logInAndOpenProject(page, user.email, user.password, 'Beta');
    await page.goto('/settings?tab=git');
    await page.getByText('No Git accounts available.').waitFor();
    await page.getByRole('button', { name: 'Connect Account' }).click();
    // the provider's page is left out: its answer (the callback) reaches the browser after the session has gone
    let authorizeUrl = '';
    await page.route(`${standin.url}/**`, (route) => {
      authorizeUrl = route.request().url();
      return route.fulfill({ status: 204 }); // no content: the page stays where it is
    });
    await page.getByRole('button', { name: 'Connect Github Account' }).click();
    await expect.poll(() => authorizeUrl).not.toBe('');
    await page.evaluate(() => ['idToken', 'expirationDate', 'refreshToken', 'profile', 'project'].forEach((k) => localStorage.removeItem(k)));
    const callback = (await fetch(authorizeUrl, { redirect: 'manual' })).headers.get('location')!;
    expect(new URL(callback).searchParams.get('state')).toBe('redirect:portal');
    await page.goto(callback);
    await page.getByLabel('Username').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('alert').filter({ hasText: 'You have successfully connected your account.' }).waitFor();
    // listed in the second project, which is the current one again; the first has none
    await page.getByText('Project Beta').waitFor();
    await page.getByTestId('git-accounts-table').getByText(standin.user('github').login).waitFor();
    expect((await accountsOf('Beta')).map((a) => a.accountName)).toEqual([standin.user('github').login]);
    expect(await accountsOf('Alpha')).toEqual([]);
    await page.screenshot({ path: `${artifactsDir}/github-signin-connect-origin.png` });
  });

  test('"Sign in with GitHub" from a login shown in place ends on that page with its query', async () => {
    // the GitHub user has a project (a signed-in page without one sends to /projects)
    const first = await stack.newPage();
    await first.goto('/login');
    await first.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await first.waitForURL('**/projects');
    const idToken = (await localStorageItem(first, 'idToken'))!;
    if (!(await stack.api<{ projects: unknown[] }>('GET', '/ms-project/projects', undefined, idToken)).projects.length)
      await stack.api('POST', '/ms-project/projects', { name: 'Octo', description: 'GitHub user', paymentPlanId: 'STARTER' }, idToken);

    const page = await stack.newPage();
    await page.goto('/settings?tab=management');
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await page.getByText('Invite users and manage permissions').waitFor();
    const url = new URL(page.url());
    expect(url.pathname + url.search).toBe('/settings?tab=management');
    expect(JSON.parse((await localStorageItem(page, 'profile')) ?? '{}').email).toBe(standin.user('github').email.toLowerCase());
    await page.screenshot({ path: `${artifactsDir}/github-signin-in-place.png` });
  });

  test('the new-password challenge met by a login shown in place ends on that page with its query', async () => {
    const owner = { email: 'inviting-owner@example.com', password: 'Passw0rd!23', firstName: 'Ina', lastName: 'Owner' };
    const member = { email: 'invited-member@example.com', password: 'Passw0rd!45', firstName: 'Ivo', lastName: 'Member' };
    const idToken = await verifiedUser(stack, owner);
    const { id: projectId } = await stack.api<{ id: string }>(
      'POST',
      '/ms-project/projects',
      { name: 'Invites', description: 'x', paymentPlanId: 'STARTER' },
      idToken,
    );
    await stack.api('POST', `/ms-project/projects/${projectId}/users`, { email: member.email, permission: 'read' }, idToken);
    const temporary = temporaryPasswordFrom(await stack.smtp.waitFor(member.email));

    const page = await stack.newPage();
    await page.goto('/settings?tab=notifications');
    await page.getByLabel('Username').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(temporary);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/account\/set-password\//);
    await page.getByLabel('First name').fill(member.firstName);
    await page.getByLabel('Last name').fill(member.lastName);
    await page.getByLabel('New password').fill(member.password);
    await page.getByLabel('Confirm password').fill(member.password);
    await page.getByRole('button', { name: 'Complete register' }).click();
    await page.getByText('Configure notification preferences').waitFor();
    await page.getByText('Project Invites').waitFor();
    const url = new URL(page.url());
    expect(url.pathname + url.search).toBe('/settings?tab=notifications');
  });

  test("a refused authorization shows the provider's reason up to its first semicolon", async () => {
    const page = await stack.newPage();
    await page.goto('/login?error=access_denied&error_description=The+user+has+denied+your+application+access.%3B+see+docs');
    await page.getByText('The user has denied your application access.', { exact: true }).waitFor();
  });
});
