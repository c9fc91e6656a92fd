/**
 * Docker registries in headless Chromium (issue 10): a user adds a Docker Registry v2 registry pointing at
 * Debian's real Distribution registry (htpasswd auth, test-support's startRegistry), sees it listed first
 * with DEFAULT, edits it (name locked, the password shows '(sensitive)' and is kept), browses the
 * repositories and versions of images pushed to it (7-character commit, message, author from the image
 * labels) and deletes it after the confirmation that says it cannot be undone.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { GANTRY_IMAGE_LABELS } from '@gantry/contracts';
import { startRegistry } from '@gantry/test-support';
import { logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';

const registry = await startRegistry({ auth: 'htpasswd', users: { pusher: 'Push-Secret-1' } });
const SHA = '4f2a9c81d07e5b3a6c9d8e7f1a2b3c4d5e6f7a8b';
await registry.pushImage('team/api', '1.0.0', {
  created: '2026-01-02T03:04:05.000Z',
  labels: {
    [GANTRY_IMAGE_LABELS.revision]: SHA,
    [GANTRY_IMAGE_LABELS.message]: 'Add the health endpoint',
    [GANTRY_IMAGE_LABELS.author]: 'Ada Lovelace',
    [GANTRY_IMAGE_LABELS.avatar]: '',
  },
});
await registry.pushImage('team/api', 'latest', { created: '2026-01-02T03:04:05.000Z' });
await registry.pushImage('worker', '0.1.0', {});
afterAll(() => registry.stop());

const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });
const LIST = '/kubernetes/docker-registries';

describe('docker registries', () => {
  const stack = useStack({ expectedConsoleErrors: [] });
  let page: Page;
  const email = 'rhea.registry@example.com';
  const password = 'Registry1234';

  test('a Docker Registry v2 is added, validated on submit, and listed first with DEFAULT', async () => {
    const idToken = await verifiedUser(stack, { email, password, firstName: 'Rhea', lastName: 'Registry' });
    await stack.api('POST', '/ms-project/projects', { name: 'Shipyard', description: 'Images' }, idToken);
    page = await stack.newPage({ keep: true });
    await logInAndOpenProject(page, email, password, 'Shipyard');

    await page.goto(LIST);
    await page.getByText('No Docker registries yet').waitFor();
    await page.getByRole('link', { name: 'Add Docker Registry' }).click();
    await page.waitForURL(`**${LIST}/add`);
    await page.getByRole('heading', { name: 'Add Docker Registry' }).waitFor();

    // Validation runs on submit only.
    await page.getByRole('button', { name: 'Create Registry' }).click();
    await page.getByText('Registry name is required').waitFor();
    await page.getByText('Docker provider is required').waitFor();
    // The field in error keeps its placeholder grey: in the error's red, the example 'my-registry' read as a refused value.
    const nameField = page.getByRole('textbox', { name: 'Name', exact: true });
    expect(await nameField.getAttribute('data-error')).not.toBeNull();
    const errorRed = await page.getByText('Registry name is required').evaluate((el) => getComputedStyle(el).color);
    expect(await nameField.evaluate((el) => getComputedStyle(el, '::placeholder').color)).not.toBe(errorRed);

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Local_Registry');
    await page.getByRole('textbox', { name: 'Docker provider' }).click();
    await page.getByRole('option', { name: /Docker Registry v2/ }).click();
    await page.getByRole('button', { name: 'Create Registry' }).click();
    await page.getByText('Registry name must be lowercase letters').waitFor();
    await page.getByText('Username is required').waitFor();

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('local');
    // Credentials are trimmed before submit.
    await page.getByRole('textbox', { name: 'Registry URL' }).fill(`  ${registry.url}  `);
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(' pusher ');
    await page.getByLabel('Password or token').fill('Push-Secret-1');
    await page.getByRole('switch', { name: 'Default registry' }).check({ force: true });
    await page.getByRole('button', { name: 'Create Registry' }).click();
    await toast(page, 'You have successfully added registry local').waitFor();
    await page.waitForURL((u) => u.pathname === LIST);

    const row = page.getByTestId('registries-table').getByRole('row').nth(1);
    await expect.poll(() => row.getByTestId('registry-name').textContent()).toBe('local');
    await row.getByText('DEFAULT').waitFor();
    await row.getByText('Docker Registry v2').waitFor();
    await row.getByText(registry.url).waitFor();
  });

  test('editing locks the name and provider and keeps the password shown as (sensitive)', async () => {
    await page.getByRole('link', { name: 'Edit registry local' }).click();
    await page.waitForURL(`**${LIST}/local/edit`);
    await page.getByRole('heading', { name: 'Edit Docker Registry' }).waitFor();
    await expect.poll(() => page.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('local');
    expect(await page.getByRole('textbox', { name: 'Name', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('textbox', { name: 'Docker provider' }).isDisabled()).toBe(true);
    const secret = page.getByLabel('Password or token');
    expect(await secret.getAttribute('placeholder')).toBe('(sensitive)');
    expect(await secret.inputValue()).toBe('');
    expect(await page.getByRole('textbox', { name: 'Username', exact: true }).inputValue()).toBe('pusher');

    await page.getByRole('button', { name: 'Update Registry' }).click();
    await toast(page, 'You have successfully edited registry local').waitFor();
    await page.waitForURL((u) => u.pathname === LIST);
    await page.getByTestId('registries-table').getByText('DEFAULT').waitFor();
  });

  test('its repositories and versions show what was pushed (the kept password still signs in)', async () => {
    await page.getByRole('button', { name: 'Repositories of local' }).click();
    const browser = page.getByTestId('registry-browser');
    await browser.getByText('team/api').first().waitFor();
    await browser.getByText('worker').waitFor();
    const versions = page.getByTestId('versions-table');
    await versions.getByText('1.0.0').waitFor();
    await versions.getByText('latest').waitFor();
    await versions.getByText(SHA.slice(0, 7)).waitFor();
    await versions.getByText(/Add the health endpoint/).waitFor();
    expect(await versions.getByText(SHA.slice(0, 8)).count()).toBe(0);

    await browser.getByText('worker').click();
    await versions.getByText('0.1.0').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('registry-browser').waitFor({ state: 'detached' });
  });

  test('delete asks for a confirmation that says it cannot be undone', async () => {
    await page.getByRole('button', { name: 'Delete registry local' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/This action cannot be undone/).waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Registry local has been deleted').waitFor();
    await page.getByText('No Docker registries yet').waitFor();
  });
});
