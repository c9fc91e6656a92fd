/**
 * Billing in headless Chromium: the instance admin (the first account) gives a project its plan on
 * /admin/plans and the project's billing tab shows it; with Stripe Checkout on (a local stand-in of
 * Stripe's API at STRIPE_API_BASE) the owner starts a checkout, lands on the URL the stand-in gave,
 * and the signed webhooks Stripe would send turn into the subscription, history and payments shown.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import Stripe from 'stripe';
import { startStripeStandin } from '@gantry/test-support/stripe-standin';
import { linkFromMail, logInAndOpenProject, pathOf, useStack, verifiedUser } from './src/harness.js';

const SECRET_KEY = 'sk_test_gantry_e2e';
const WEBHOOK_SECRET = 'whsec_gantry_e2e';
const standin = await startStripeStandin({ secretKey: SECRET_KEY });
afterAll(() => standin.close());

const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });

describe('billing', () => {
  const stack = useStack({
    env: { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: standin.url },
    expectedConsoleErrors: [],
  });
  const admin = { email: 'ada.admin@example.com', password: 'Admin12345', firstName: 'Ada', lastName: 'Admin' };
  const owner = { email: 'otto.owner@example.com', password: 'Owner12345', firstName: 'Otto', lastName: 'Owner' };
  let ownerPage: Page;

  test('the instance admin sets a project plan on the admin page; the billing tab shows it', async () => {
    await verifiedUser(stack, admin); // the first account of the instance
    const ownerToken = await verifiedUser(stack, owner);
    await stack.api('POST', '/ms-project/projects', { name: 'Shop', description: 'The web shop' }, ownerToken);

    const page = await stack.newPage();
    await page.goto('/login');
    await page.getByLabel('Username').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL('**/projects');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Project plans', exact: true }).click();
    await page.waitForURL('**/admin/plans');
    const row = page.getByTestId('admin-projects').getByRole('row').filter({ hasText: 'Shop' });
    await row.getByText(owner.email).waitFor();
    await row.getByText('TRIAL').waitFor();
    await row.getByRole('textbox', { name: 'Plan of Shop', exact: true }).click();
    await page.getByRole('option', { name: 'Professional', exact: true }).click();
    await toast(page, 'Shop is now on the Professional plan').waitFor();
    await row.getByText('ACTIVE').waitFor();
    await page.screenshot({ path: 'e2e/.artifacts/billing-admin-plans.png', fullPage: true });

    ownerPage = await stack.newPage({ keep: true });
    await logInAndOpenProject(ownerPage, owner.email, owner.password, 'Shop');
    await ownerPage.goto('/settings?tab=billing');
    await expect.poll(() => ownerPage.getByTestId('subscription-plan').textContent()).toBe('Professional');
    const history = ownerPage.getByTestId('subscription-history');
    await history.getByRole('row').filter({ hasText: 'Instance admin' }).filter({ hasText: 'Professional' }).waitFor();
    await history.getByRole('row').filter({ hasText: 'Trial' }).filter({ hasText: 'Starter' }).waitFor();
    await ownerPage.getByTestId('special-deal').getByText('One year of the Professional plan, paid once.').waitFor();
  });

  test('Stripe Checkout: the owner subscribes, the signed webhooks arrive, the tab shows the subscription and history', async () => {
    const plan = ownerPage.getByTestId('payment-plan').filter({ hasText: 'Business' });
    await plan.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await ownerPage.waitForURL(`${standin.url}/pay/**`);
    await ownerPage.getByText('Stripe Checkout stand-in').waitFor();
    await expect.poll(() => ownerPage.getByTestId('checkout-item').textContent()).toBe('Gantry Business (yearly): 4788.00 USD');

    // The customer pays; Stripe posts its events, each signed with the endpoint secret.
    const sessionId = new URL(ownerPage.url()).pathname.split('/').pop()!;
    const stripe = new Stripe(SECRET_KEY);
    for (const event of standin.complete(sessionId)) {
      const payload = JSON.stringify(event);
      const res = await fetch(`${stack.url}/ms-project/billing/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
        body: payload,
      });
      expect(res.status).toBe(200);
    }

    await ownerPage.goto(standin.sessions.get(sessionId)!.success_url);
    await ownerPage.getByText('Payment received', { exact: true }).waitFor();
    await expect.poll(() => ownerPage.getByTestId('subscription-plan').textContent()).toBe('Business');
    await ownerPage.getByTestId('subscription-history').getByRole('row').filter({ hasText: 'Card payment' }).filter({ hasText: 'Business' }).waitFor();
    await ownerPage.getByTestId('payments').getByRole('row').filter({ hasText: 'Business' }).filter({ hasText: '$4,788.00' }).waitFor();
    await ownerPage.screenshot({ path: 'e2e/.artifacts/billing-tab-stripe.png', fullPage: true });
  });
});

describe('billing without card payments', () => {
  const stack = useStack({
    expectedConsoleErrors: [
      // a code that does not exist, at /appsumo and on Redeem: refused 400 with the server's message, as the test means it to be
      {
        match: /status of 400 .*\(\/ms-(usermanagement\/promo-codes\/apply|project\/projects\/[^/]+\/promo-code)\)$/,
        why: 'an unknown promo code is refused',
      },
    ],
  });
  const admin = { email: 'ada.admin@example.com', password: 'Admin12345', firstName: 'Ada', lastName: 'Admin' };
  const reader = { email: 'rick.reader@example.com', password: 'Reader12345', firstName: 'Rick', lastName: 'Reader' };

  test('the instance admin is sent to Project plans, a read member is refused the booking, and the history shows no raw ids', async () => {
    const adminToken = await verifiedUser(stack, admin); // the first account of the instance
    await verifiedUser(stack, reader);
    const { id: projectId } = await stack.api('POST', '/ms-project/projects', { name: 'Lab', description: 'Experiments' }, adminToken);
    await stack.api('POST', `/ms-project/projects/${projectId}/users`, { email: reader.email, permission: 'read' }, adminToken);
    const { history } = await stack.api('GET', `/ms-project/projects/${projectId}/subscription/history`, undefined, adminToken);

    const page = await stack.newPage();
    await logInAndOpenProject(page, admin.email, admin.password, 'Lab');
    await page.goto('/settings?tab=billing');
    const hint = page.getByRole('alert').filter({ hasText: 'You manage the plans of this instance' });
    await hint.getByText('As its instance admin, you give this project its plan on Project plans.').waitFor();
    expect(await page.getByText('Ask your instance admin').count()).toBe(0);
    const rows = page.getByTestId('subscription-history').getByRole('row');
    await rows.filter({ hasText: 'Trial' }).filter({ hasText: 'Starter' }).waitFor();
    expect(await page.getByTestId('subscription-history').getByRole('columnheader').allTextContents()).toEqual([
      'Plan',
      'Type',
      'Start date',
      'Expiration date',
    ]);
    expect(await page.getByText(history[0].subscriptionId).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Free Pilot', exact: true }).getAttribute('target')).toBe('_blank');
    await hint.getByRole('link', { name: 'Project plans', exact: true }).click();
    await page.waitForURL('**/admin/plans');

    const readerPage = await stack.newPage();
    await logInAndOpenProject(readerPage, reader.email, reader.password, 'Lab');
    await readerPage.goto('/settings?tab=billing');
    await readerPage.getByRole('alert').filter({ hasText: 'Ask your instance admin to change this project' }).waitFor();
    // only owners redeem a promo code (the card refuses a reader): the hints do not offer it
    await expect.poll(() => readerPage.getByText(/redeem a promo code/).count()).toBe(0);
    const pilot = readerPage.getByRole('button', { name: 'Free Pilot', exact: true });
    await expect.poll(() => pilot.isDisabled()).toBe(true);
    expect(await readerPage.getByRole('link', { name: 'Free Pilot', exact: true }).count()).toBe(0);
    await pilot.locator('xpath=ancestor::span[@data-refused][1]').hover();
    await readerPage.getByRole('tooltip').filter({ hasText: 'Your permission in this project is Read: only the project’s owners can do this.' }).waitFor();
  });

  test('an AppSumo code signs a visitor up at /appsumo, and their first project is on the Professional plan', async () => {
    const [code] = await stack.promoCodes('APPSUMO');
    const sue = { email: 'sue.sumo@example.com', password: 'Sumo12345', firstName: 'Sue', lastName: 'Sumo' };
    const page = await stack.newPage();
    await page.goto(`/appsumo?email=${encodeURIComponent(sue.email)}`);
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(sue.email);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByText('Please enter your code').waitFor();
    await page.getByLabel('First name').fill(sue.firstName);
    await page.getByLabel('Last name').fill(sue.lastName);
    await page.getByLabel('Password', { exact: true }).fill(sue.password);
    await page.getByLabel('AppSumo code').fill('NOT-A-CODE');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('alert').filter({ hasText: 'This promo code is not valid or was already used.' }).waitFor();
    await page.getByLabel('AppSumo code').fill(code!);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await page.getByRole('heading', { name: "You've Got Mail!" }).waitFor();
    await page.getByText('We sent a confirmation link to:').waitFor();
    await page.getByTestId('mail-sent-address').filter({ hasText: sue.email }).waitFor();

    await page.goto(pathOf(linkFromMail(await stack.smtp.waitFor(sue.email), '/account/verify/')));
    await page.getByText('Your email has been verified!').waitFor();
    await page.getByRole('link', { name: 'Go to Login' }).click();
    await page.getByLabel('Username').fill(sue.email);
    await page.getByLabel('Password', { exact: true }).fill(sue.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByText('Start Building!').waitFor();
    await page.getByRole('button', { name: 'Create Project' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Project name').fill('Deal');
    await dialog.getByLabel('Description').fill('Bought on AppSumo');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('button', { name: 'Open project Deal' }).click();
    await page.waitForURL('**/overview');
    await page.goto('/settings?tab=billing');
    await expect.poll(() => page.getByTestId('subscription-plan').textContent()).toBe('Professional');
    await page.getByTestId('subscription-history').getByRole('row').filter({ hasText: 'AppSumo' }).filter({ hasText: 'Professional' }).waitFor();
  });

  test('the owner redeems a promo code on the billing tab: the project is on the Professional plan', async () => {
    const [code] = await stack.promoCodes('PROMO');
    const page = await stack.newPage();
    await logInAndOpenProject(page, admin.email, admin.password, 'Lab');
    await page.goto('/settings?tab=billing');
    await expect.poll(() => page.getByTestId('subscription-plan').textContent()).toBe('Starter');
    const redeem = page.getByRole('button', { name: 'Redeem', exact: true });
    await redeem.click();
    await page.getByText('Please enter a promo code').waitFor();
    await page.getByLabel('Promo code').fill('NOT-A-CODE');
    await redeem.click();
    await page.getByRole('alert').filter({ hasText: 'This promo code is not valid or was already used.' }).waitFor();
    await page.getByLabel('Promo code').fill(code!);
    await redeem.click();
    await page.getByRole('alert').filter({ hasText: 'You have successfully redeemed a promo code' }).waitFor();
    await expect.poll(() => page.getByTestId('subscription-plan').textContent()).toBe('Professional');
    await page.getByTestId('subscription-history').getByRole('row').filter({ hasText: 'Promo code' }).filter({ hasText: 'Professional' }).waitFor();
    expect(await page.getByLabel('Promo code').inputValue()).toBe('');
  });
});
