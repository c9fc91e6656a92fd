/**
 * Foundation main flow in headless Chromium against the real stack (issue 2):
 * sign-up → e-mail verification → login → project → invitation → member completes registration →
 * a read member is refused by the server (API and UI) → silent id-token refresh.
 */
import { describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { jwtClaims, linkFromMail, localStorageItem, pathOf, temporaryPasswordFrom, useStack, waitUntilExpired } from './src/harness.js';
import { choose, cutLabels, onTop, pointThroughToast, underToasts } from './src/ui.js';

const OWNER = { firstName: 'Olivia', lastName: 'Owner', email: 'olivia.owner@example.com', password: 'Owner1234' };
const MEMBER = { firstName: 'Max', lastName: 'Member', email: 'max.member@example.com', password: 'Member1234' };
const PROJECT = { name: 'Storefront', description: 'Shop front end and API' };

/** A toast (Mantine notification, role=alert) holding the text. */
const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });

/** The shown choice of a native <select> or of a Mantine Select's input. */
async function selectedText(field: Locator) {
  return field.evaluate((el) => (el instanceof HTMLSelectElement ? (el.selectedOptions[0]?.textContent ?? '') : (el as HTMLInputElement).value));
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

describe('foundation: accounts, projects and members', () => {
  const stack = useStack({
    expectedConsoleErrors: [
      // the test's own change of the project with a reader's token, straight at the API from the member's page: 403
      { match: /status of 403 .*\(\/ms-project\/projects\/[^/]+\)$/, why: "a reader's change is refused" },
      // the password a reset replaced: the login is refused 401 with the spec's toast
      { match: /status of 401 .*\(\/ms-usermanagement\/auth\/login\)$/, why: 'the old password after a reset is refused' },
    ],
  });
  let owner: Page;
  let member: Page;
  let projectId: string;

  test('a visitor signs up at /register and the verification e-mail arrives', async () => {
    owner = await stack.newPage({ keep: true });
    await owner.goto('/register');
    await owner.getByLabel('First name').fill(OWNER.firstName);
    await owner.getByLabel('Last name').fill(OWNER.lastName);
    await owner.getByLabel('Email').fill(OWNER.email);
    await owner.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await owner.getByRole('button', { name: 'Sign Up' }).click();
    await expect.poll(() => owner.getByText('We sent a verification link to:').isVisible()).toBe(true);
    await owner.getByText(OWNER.email).first().waitFor();

    const mail = await stack.smtp.waitFor(OWNER.email);
    expect(linkFromMail(mail, '/account/verify/')).toContain(`/account/verify/${encodeURIComponent(OWNER.email)}/`);
  });

  test('another site cannot show Gantry in a frame of its own (clickjacking)', async () => {
    const page = await stack.newPage();
    await page.setContent(`<iframe id="gantry" src="${stack.url}/login" width="900" height="700"></iframe>`);
    const framed = () => page.frames().find((f) => f !== page.mainFrame());
    // Chromium puts its error page in a frame the framed site refused
    await expect.poll(() => framed()?.url(), { timeout: 10_000 }).toBe('chrome-error://chromewebdata/');
    expect(await framed()!.locator('#root').count()).toBe(0);
  });

  test('the API reference opens at /docs under the same Content-Security-Policy', async () => {
    const page = await stack.newPage();
    await page.goto('/docs');
    await page.locator('.opblock').first().waitFor();
    await page.getByText('Gantry API').first().waitFor();
    // the operations are drawn by swagger-ui's script
    expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
  });

  test('the e-mail link verifies the address', async () => {
    const mail = await stack.smtp.waitFor(OWNER.email);
    await owner.goto(pathOf(linkFromMail(mail, '/account/verify/')));
    await owner.getByText('Your email has been verified!').waitFor();
    await owner.getByRole('link', { name: 'Go to Login' }).click();
    await owner.waitForURL('**/login');
  });

  test('the owner logs in and creates a project on /projects', async () => {
    await logIn(owner, OWNER.email, OWNER.password);
    await owner.waitForURL('**/projects');
    await owner.getByText('Start Building!').waitFor();
    expect(await localStorageItem(owner, 'idToken')).toBeTruthy();

    await owner.getByRole('button', { name: 'Create Project' }).click();
    const dialog = owner.getByRole('dialog');
    await dialog.getByLabel('Project name').fill(PROJECT.name);
    await dialog.getByLabel('Description').fill(PROJECT.description);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast(owner, 'Successfully created project').waitFor();
    await owner.getByTestId('project-card').filter({ hasText: PROJECT.name }).waitFor();
    await expect.poll(() => owner.getByTestId('projects-total').textContent()).toContain('Total Projects: 1');

    const idToken = (await localStorageItem(owner, 'idToken'))!;
    const { projects } = await stack.api<{ projects: Array<{ id: string; name: string }> }>('GET', '/ms-project/projects', undefined, idToken);
    expect(projects.map((p) => p.name)).toEqual([PROJECT.name]);
    projectId = projects[0].id;
  });

  test('the owner invites a member by e-mail on Settings → Access Management', async () => {
    await owner.goto('/settings?tab=management');
    await owner.getByText('Invite users and manage permissions').waitFor();
    await owner.getByRole('button', { name: 'Add New User' }).click();
    const dialog = owner.getByRole('dialog');
    await dialog.getByLabel('Email').fill(MEMBER.email);
    // The invitation form's default permission is write (spec §5).
    await expect.poll(() => selectedText(dialog.getByLabel('Permission'))).toMatch(/^write$/i);
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await toast(owner, 'Successfully added user').waitFor();
    // The toast (5 s) opens clear of Add New User, the card's action just below the settings tabs, not over it.
    await dialog.waitFor({ state: 'detached' });
    await owner.screenshot({ path: 'e2e/.artifacts/members-added-toast.png' });
    expect(await onTop(owner.getByRole('button', { name: 'Add New User' }))).toBe(true);
    expect(await toast(owner, 'Successfully added user').isVisible()).toBe(true);
    const row = owner.getByRole('row').filter({ hasText: MEMBER.email });
    await row.getByText('PENDING').waitFor();

    // A second toast (Resend on the owner's row) stacks with the first, over the first row's actions (the table's right
    // end is in the toasts' column): pointed at, the toasts let the mouse through to them and show them, and the click
    // reaches Edit (it reached the toast, and Edit, Resend and Remove stayed hidden and out of reach for the toasts' 5 s)
    const ownerRow = owner.getByRole('row').filter({ hasText: OWNER.email });
    await ownerRow.getByRole('button', { name: 'Resend' }).click();
    await toast(owner, 'The user has already accepted the invitation').waitFor();
    expect(await underToasts(owner, row)).toContainEqual(expect.stringMatching(/^Edit under /));
    const { x, y } = await pointThroughToast(owner, row.getByRole('button', { name: 'Edit' }));
    await owner.screenshot({ path: 'e2e/.artifacts/members-toast-see-through.png' });
    await owner.mouse.click(x, y);
    const memberEdit = owner.getByRole('dialog');
    await expect.poll(() => memberEdit.getByLabel('Email').inputValue()).toBe(MEMBER.email);
    await memberEdit.getByRole('button', { name: 'Cancel' }).click();
    await memberEdit.waitFor({ state: 'detached' });
    // at a phone's width the pending row keeps its badge's word (it read 'P…')
    await owner.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => cutLabels(row)).toEqual([]);
    await row.screenshot({ path: 'e2e/.artifacts/members-pending-390.png' });
    await owner.setViewportSize({ width: 1366, height: 900 });

    // On a touch screen (no mouse to point with) a tap on a toast closes it, and reaches nothing under it; the next tap
    // reaches what it covered
    const phone = await stack.browser.newContext({
      baseURL: stack.url,
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      storageState: await owner.context().storageState(),
    });
    try {
      const tapper = await phone.newPage();
      await tapper.goto('/settings?tab=management');
      const ownerRowOnPhone = tapper.getByRole('row').filter({ hasText: OWNER.email });
      await ownerRowOnPhone.getByRole('button', { name: 'Resend' }).tap();
      const shown = toast(tapper, 'The user has already accepted the invitation');
      await shown.waitFor();
      await shown.getByText('The user has already accepted the invitation').tap();
      await shown.waitFor({ state: 'detached', timeout: 2000 }); // before its 5 s are over
      expect(await tapper.getByRole('dialog').count()).toBe(0);
    } finally {
      await phone.close();
    }

    const invitation = await stack.smtp.waitFor(MEMBER.email);
    expect(invitation.subject).toContain(PROJECT.name);
    expect(temporaryPasswordFrom(invitation)).toMatch(/\S{8,}/);
  });

  test('the member logs in with the temporary password and completes the registration', async () => {
    const invitation = await stack.smtp.waitFor(MEMBER.email);
    member = await stack.newPage({ keep: true });
    await logIn(member, MEMBER.email, temporaryPasswordFrom(invitation));
    await member.waitForURL(/\/account\/set-password\//);
    expect(decodeURIComponent(new URL(member.url()).pathname)).toContain(`/account/set-password/${MEMBER.email}/`);
    await expect.poll(() => member.getByLabel('Email').inputValue()).toBe(MEMBER.email);
    await member.getByLabel('First name').fill(MEMBER.firstName);
    await member.getByLabel('Last name').fill(MEMBER.lastName);
    await member.getByLabel('New password').fill(MEMBER.password);
    await member.getByLabel('Confirm password').fill(MEMBER.password);
    await member.getByRole('button', { name: 'Complete register' }).click();
    await member.waitForURL('**/projects');
    await member.getByTestId('project-card').filter({ hasText: PROJECT.name }).waitFor();

    // The owner now sees the invitation accepted: no PENDING badge, the member's name.
    await owner.reload();
    const row = owner.getByRole('row').filter({ hasText: MEMBER.email });
    await row.getByText(`${MEMBER.firstName} ${MEMBER.lastName}`).waitFor();
    expect(await row.getByText('PENDING').count()).toBe(0);
  });

  test('the owner makes the member read-only and the server refuses the member a change', async () => {
    const row = owner.getByRole('row').filter({ hasText: MEMBER.email });
    await row.getByRole('button', { name: 'Edit' }).click();
    const dialog = owner.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('Email').isDisabled()).toBe(true);
    await choose(owner, dialog.getByLabel('Permission'), 'Read');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(owner, 'Successful updated user permissions').waitFor();
    await row.getByText('read', { exact: true }).waitFor();

    // Straight at the API with the member's own stored token: 403.
    await member.reload();
    const answer = await member.evaluate(
      async ({ id, name }) => {
        const res = await fetch(`/ms-project/projects/${id}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${localStorage.getItem('idToken')}` },
          body: JSON.stringify({ name, description: 'changed by a reader', paymentPlanId: 'STARTER' }),
        });
        return { status: res.status, body: (await res.json()) as { message: string } };
      },
      { id: projectId, name: PROJECT.name },
    );
    expect(answer.status).toBe(403);
    expect(answer.body.message).toMatch(/permission/i);

    // Through the UI: the reader is not offered the edit; the button says why.
    const card = member.getByTestId('project-card').filter({ hasText: PROJECT.name });
    await card.getByText('read', { exact: true }).waitFor();
    const editButton = card.getByRole('button', { name: 'Edit' });
    await expect.poll(() => editButton.isDisabled()).toBe(true);
    await editButton.locator('xpath=..').hover();
    await member.getByRole('tooltip').filter({ hasText: 'Only the project owner can change it' }).waitFor();

    const { projects } = await stack.api<{ projects: Array<{ id: string; description: string }> }>(
      'GET',
      '/ms-project/projects',
      undefined,
      (await localStorageItem(owner, 'idToken'))!,
    );
    expect(projects.find((p) => p.id === projectId)?.description).toBe(PROJECT.description);
  });

  test('the owner makes the member an admin: the member manages users, but is offered no change to the owner', async () => {
    const row = owner.getByRole('row').filter({ hasText: MEMBER.email });
    await row.getByRole('button', { name: 'Edit' }).click();
    const dialog = owner.getByRole('dialog');
    await choose(owner, dialog.getByLabel('Permission'), 'Admin');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // the previous test's toast of the same words may still be shown
    await toast(owner, 'Successful updated user permissions').last().waitFor();
    await row.getByText('admin', { exact: true }).waitFor();

    await member.goto('/settings?tab=management');
    await member.getByRole('button', { name: 'Add New User' }).waitFor();
    await expect.poll(() => member.getByRole('button', { name: 'Add New User' }).isDisabled()).toBe(false);
    // the owner's row: Edit and Remove are disabled (the server refuses an admin both), and say why
    const ownerRow = member.getByRole('row').filter({ hasText: OWNER.email });
    for (const name of ['Edit', 'Remove']) {
      const control = ownerRow.getByRole('button', { name });
      await expect.poll(() => control.isDisabled(), { message: `${name} on the owner's row` }).toBe(true);
      await control.locator('xpath=ancestor::span[@data-refused][1]').hover();
      await member.getByRole('tooltip').filter({ hasText: 'Only the project’s owners can change or remove an owner.' }).waitFor();
      await member.mouse.move(0, 0);
    }
    // the member's own row stays theirs to change
    expect(await member.getByRole('row').filter({ hasText: MEMBER.email }).getByRole('button', { name: 'Edit' }).isDisabled()).toBe(false);
    // an admin does not make owners: Owner is offered disabled in the invitation
    await member.getByRole('button', { name: 'Add New User' }).click();
    const invite = member.getByRole('dialog');
    const owners = invite.getByLabel('Permission').locator('option[value="owner"]');
    expect(await owners.isDisabled()).toBe(true);
    expect(await owners.textContent()).toBe('Owner (only owners can give it)');
    expect(await invite.getByLabel('Permission').locator('option[value="admin"]').isDisabled()).toBe(false);
    await member.screenshot({ path: 'e2e/.artifacts/members-admin-invite.png' });
    await invite.getByRole('button', { name: 'Cancel' }).click();
  });

  test('the owner removes the member from the project; the member no longer has it', async () => {
    const row = owner.getByRole('row').filter({ hasText: MEMBER.email });
    await row.getByRole('button', { name: 'Remove' }).click();
    const dialog = owner.getByRole('dialog');
    await dialog.getByText(`Are you sure you want to remove ${MEMBER.email} from the project?`).waitFor();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await toast(owner, 'Successful removed user from project').waitFor();
    await row.waitFor({ state: 'detached' });

    await member.goto('/projects');
    await member.getByText('Start Building!').waitFor();
    expect(await member.getByTestId('project-card').count()).toBe(0);
  });

  test("the owner renames a project and deletes another, confirming with the spec's words", async () => {
    await owner.goto('/projects');
    await owner.getByRole('button', { name: 'Create Project' }).click();
    let dialog = owner.getByRole('dialog');
    await dialog.getByLabel('Project name').fill('Scratch');
    await dialog.getByLabel('Description').fill('To be thrown away');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast(owner, 'Successfully created project').last().waitFor();
    await expect.poll(() => owner.getByTestId('projects-total').textContent()).toContain('Total Projects: 2');

    const card = (name: string) => owner.getByTestId('project-card').filter({ has: owner.getByText(name, { exact: true }) });
    await card('Scratch').getByRole('button', { name: 'Edit' }).click();
    dialog = owner.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('Project name').inputValue()).toBe('Scratch');
    await dialog.getByLabel('Project name').fill('A name over twenty chars');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Project name must be at most 20 characters').waitFor();
    await dialog.getByLabel('Project name').fill('Scratchpad');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(owner, 'Successfully updated project').waitFor();
    await card('Scratchpad').waitFor();

    await card('Scratchpad').getByRole('button', { name: 'Remove' }).click();
    dialog = owner.getByRole('dialog');
    await dialog
      .getByText('Are you sure you want to delete "Scratchpad" project? Do you really want to delete the project? This action cannot be undone.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast(owner, 'Successfully deleted project').waitFor();
    await card('Scratchpad').waitFor({ state: 'detached' });
    await expect.poll(() => owner.getByTestId('projects-total').textContent()).toContain('Total Projects: 1');
    // the search is case-insensitive over name and description, and says when nothing matches
    await owner.getByPlaceholder('Search projects...').fill('SHOP FRONT');
    await card(PROJECT.name).waitFor();
    await owner.getByPlaceholder('Search projects...').fill('nothing like it');
    await owner.getByText('No projects found with that name or description.').waitFor();
    await owner.getByPlaceholder('Search projects...').fill('');
  });

  test('a forgotten password is reset through the e-mailed link; only the new one logs in', async () => {
    const page = await stack.newPage();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Username').fill('not-an-email');
    await page.getByRole('button', { name: 'Send recovery link' }).click();
    await page.getByText('Please enter a valid email').waitFor();
    await page.getByLabel('Username').fill(MEMBER.email);
    await page.getByRole('button', { name: 'Send recovery link' }).click();
    await page.waitForURL(`**/account/reset-confirmation/${encodeURIComponent(MEMBER.email)}`);
    await page.getByText("You've Got Mail!").waitFor();
    await page.getByText('We sent a recovery link to:').waitFor();
    await page.getByText(MEMBER.email).waitFor();
    await page.getByRole('link', { name: 'Back to Login' }).waitFor();

    const mail = await stack.smtp.waitFor((m) => m.to.includes(MEMBER.email) && m.links.some((l) => l.includes('/account/reset/')));
    await page.goto(pathOf(linkFromMail(mail, '/account/reset/')));
    await page.getByLabel('New password').fill('newpass1');
    await page.getByLabel('Confirm password').fill('Other1234');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText('Password must contain at least one uppercase letter').waitFor();
    await page.getByText("Passwords don't match").waitFor();
    await page.getByLabel('New password').fill('Renewed1234');
    await page.getByLabel('Confirm password').fill('Renewed1234');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.waitForURL('**/login');

    await logIn(page, MEMBER.email, MEMBER.password);
    await toast(page, 'Incorrect username or password.').waitFor();
    await logIn(page, MEMBER.email, 'Renewed1234');
    await page.waitForURL('**/projects');
  });

  test('the marketplace sign-up at /register/aws prefills the e-mail and ends on Email Verification', async () => {
    const email = 'mara.marketplace@example.com';
    const page = await stack.newPage();
    await page.goto(`/register/aws?email=${encodeURIComponent(email)}&code=mp-123`);
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(email);
    await page.getByLabel('First name').fill('Mara');
    await page.getByLabel('Last name').fill('Marketplace');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Password must be at least 8 characters long').waitFor();
    await page.getByLabel('Password', { exact: true }).fill('Market1234');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('heading', { name: 'Email Verification' }).waitFor();
    await page.getByText('We sent a verification link to the e-mail below. Please follow it to complete your registration.').waitFor();
    await page.getByTestId('mail-sent-address').filter({ hasText: email }).waitFor();
    expect(linkFromMail(await stack.smtp.waitFor(email), '/account/verify/')).toContain(`/account/verify/${encodeURIComponent(email)}/`);
  });

  test('a signed-in unknown page goes to /projects; /page-not-found leads back to the dashboard', async () => {
    await owner.goto('/no/such/page');
    await owner.waitForURL('**/projects');
    await owner.goto('/page-not-found');
    await owner.getByText('Oops, page not found!').waitFor();
    await owner.getByRole('link', { name: 'Back to Dashboard' }).click();
    await owner.waitForURL('**/projects');
  });
});

describe('session: an expired id token is refreshed silently', () => {
  // Id tokens live 2 seconds here, so the first call after the wait meets TokenExpiredError.
  const stack = useStack({
    env: { GANTRY_ID_TOKEN_TTL_SECONDS: '2' },
    // spec (session and token refresh): a request meeting the expired token is answered 401 TokenExpiredError, then the
    // token is refreshed and the request retried; whichever request meets it first, the browser logs its 401
    expectedConsoleErrors: [{ match: /status of 401 \(Unauthorized\) \(\/ms-/, why: 'the expired id token, refreshed on its 401' }],
  });
  const USER = { firstName: 'Rita', lastName: 'Refresh', email: 'rita.refresh@example.com', password: 'Refresh1234' };

  test('after the id token expires, creating a project still works without a new login', async () => {
    await stack.api('POST', '/ms-usermanagement/auth/sign-up', {
      username: USER.email,
      password: USER.password,
      firstName: USER.firstName,
      lastName: USER.lastName,
    });
    const mail = await stack.smtp.waitFor(USER.email);
    const code = decodeURIComponent(pathOf(linkFromMail(mail, '/account/verify/')).split('/').pop()!);
    await stack.api('POST', '/ms-usermanagement/auth/activate', { username: USER.email, code });

    const page = await stack.newPage();
    await logIn(page, USER.email, USER.password);
    await page.waitForURL('**/projects');
    await page.getByText('Start Building!').waitFor();
    const before = (await localStorageItem(page, 'idToken'))!;
    expect(jwtClaims(before).exp! - jwtClaims(before).iat!).toBe(2);

    await waitUntilExpired(before);
    await page.getByRole('button', { name: 'Create Project' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Project name').fill('Refreshed');
    await dialog.getByLabel('Description').fill('Created with a refreshed token');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await toast(page, 'Successfully created project').waitFor();
    await page.getByTestId('project-card').filter({ hasText: 'Refreshed' }).waitFor();

    const after = await localStorageItem(page, 'idToken');
    expect(after).toBeTruthy();
    expect(after).not.toBe(before);
    expect(new URL(page.url()).pathname).toBe('/projects');
  });
});
