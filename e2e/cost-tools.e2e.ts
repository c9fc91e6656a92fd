/**
 * Cloud Waste Manager plan gate in headless Chromium (issue 12, spec §2.1, §2.10, §8): a new project is on the
 * STARTER trial, whose plan has no cloudCostOptimizer, so the schedules list answers 402. The side menu then has no
 * Cloud Waste Manager section, the schedules page shows the upgrade prompt with Create Schedule disabled, and the
 * Waste Advisor shows its upgrade prompt leading to billing. The web knows the plan from its subscription and does not
 * ask for the schedules or the advisor's results: no page logs a refused request in the console (the console guard),
 * and no page asks for the advisor's results at all.
 */
import { describe, expect, test } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { connectAwsAccount, useAwsStandin } from './src/aws-standin.js';
import { logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';

await useAwsStandin();

/**
 * Holds the project's subscription (its plan) until the returned function is called: a page then shows what it shows
 * before it knows the plan (an AWS environment's advisor summary, while the schedules' answer waits for the plan), as
 * a slow answer would. Whatever that part asks for, it asks before the plan is known, every time.
 */
async function holdPlan(page: Page): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const held: Promise<void>[] = [];
  const glob = '**/ms-project/projects/*/subscription';
  const hold = (route: Route) => void held.push(released.then(() => route.continue()));
  await page.route(glob, hold);
  return async () => {
    release();
    await Promise.all(held);
    await page.unroute(glob, hold);
  };
}

describe('cloud waste manager without the plan feature', () => {
  const stack = useStack({ expectedConsoleErrors: [] });
  let page: Page;

  test('the side menu has no Cloud Waste Manager section, and the tools show the upgrade prompt', async () => {
    const email = 'lena.lean@example.com';
    const password = 'Savings1234';
    const idToken = await verifiedUser(stack, { email, password, firstName: 'Lena', lastName: 'Lean' });
    const { id: projectId } = await stack.api('POST', '/ms-project/projects', { name: 'Lean', description: 'Starter trial' }, idToken);
    // the server's answer the menu follows: 402 on the STARTER plan
    await expect(stack.api('GET', `/ms-cloud-cost-optimizer/projects/${projectId}/schedules`, undefined, idToken)).rejects.toThrow(/answered 402/);
    // an AWS environment: its card and page would show the advisor's summary, which the plan has not either
    const { id: awsAccountId } = await connectAwsAccount(stack, idToken, projectId, 'ext-lean');
    const { stageId } = await stack.api(
      'POST',
      `/ms-engine/projects/${projectId}/stages`,
      { name: 'leanstaging', description: 'Staging', cloudProvider: 'aws', awsAccountId, awsRegion: 'eu-central-1' },
      idToken,
    );

    page = await stack.newPage();
    // the advisor's results are not asked for on any page (their 402 would be logged too: the console guard)
    const advisorAsked: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (/^\/ms-cloud-cost-optimizer\/projects\/[^/]+\/advisor$/.test(pathname)) advisorAsked.push(`${r.method()} ${pathname}`);
    });
    await logInAndOpenProject(page, email, password, 'Lean');
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByText('Infrastructure Builder', { exact: true }).waitFor();
    // shown while the schedules list loads, gone once it answered 402
    await menu.getByText('Cloud Waste Manager', { exact: true }).waitFor({ state: 'detached' });
    expect(await menu.getByText('Waste Advisor', { exact: true }).count()).toBe(0);

    await page.goto('/tools/schedules');
    await page.getByRole('heading', { name: 'Saving Schedules', exact: true }).waitFor();
    await page.getByTestId('upgrade-prompt').waitFor();
    expect(await page.getByRole('button', { name: 'Create Schedule', exact: true }).isDisabled()).toBe(true);

    await page.goto('/tools/advisor');
    await page.getByRole('heading', { name: 'Waste Advisor', exact: true }).waitFor();
    const prompt = page.getByTestId('upgrade-prompt');
    await prompt.waitFor();
    expect(await page.getByRole('button', { name: 'Get statistics', exact: true }).count()).toBe(0);
    await prompt.getByRole('link', { name: 'Upgrade Plan', exact: true }).click();
    await page.waitForURL('**/settings?tab=billing');

    // the other pages that read the schedules: the environments list, the environment's page and the form. On the list
    // and the page the advisor's summary shows while the plan is not known yet (held): it must not ask for the results.
    let release = await holdPlan(page);
    await page.goto('/environments');
    await page.getByText('leanstaging', { exact: true }).waitFor();
    await page.getByTestId('advisor-summary').waitFor();
    await release();
    await page.getByTestId('cost-teaser').waitFor();
    await page.waitForLoadState('networkidle');
    release = await holdPlan(page);
    await page.goto(`/environments/${stageId}`);
    await page.getByRole('heading', { name: 'leanstaging' }).waitFor();
    await page.getByTestId('open-advisor').waitFor();
    await release();
    await page.getByTestId('statistics-panel').getByTestId('cost-teaser').waitFor();
    await page.waitForLoadState('networkidle');
    await page.goto('/environments/create');
    await page.getByRole('textbox', { name: 'Name' }).waitFor();
    await page.waitForLoadState('networkidle');
    // what the plan cannot have is not asked for: no request for the advisor's results (each would answer 402, and
    // the browser would log it: the console guard fails the test on any console error)
    expect(advisorAsked).toEqual([]);
  });
});
