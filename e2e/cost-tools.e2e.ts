/**
 * Cloud Waste Manager plan gate in headless Chromium (issue 12, spec §2.1, §2.10, §8): a new project is on the
 * STARTER trial, whose plan has no cloudCostOptimizer, so the schedules list answers 402. The side menu then has no
 * Cloud Waste Manager section, the schedules page shows the upgrade prompt with Create Schedule disabled, and the
 * Waste Advisor shows its upgrade prompt leading to billing. The web knows the plan from its subscription and does not
 * ask for the schedules or the advisor's results: no page logs a refused request in the console.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { connectAwsAccount, useAwsStandin } from './src/aws-standin.js';
import { logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';

await useAwsStandin();

describe('cloud waste manager without the plan feature', () => {
  const stack = useStack();
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
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${new URL(page.url()).pathname}: ${m.text()}`);
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

    // the other pages that read the schedules: the environments list and form
    await page.goto('/environments');
    await page.getByText('leanstaging', { exact: true }).waitFor();
    await page.getByText('Cloud Waste Manager').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.goto(`/environments/${stageId}`);
    await page.getByRole('heading', { name: 'leanstaging' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.goto('/environments/create');
    await page.getByRole('textbox', { name: 'Name' }).waitFor();
    await page.waitForLoadState('networkidle');
    // what the plan cannot have is not asked for: no refused request (402) logged in the console on any of them
    expect(consoleErrors).toEqual([]);
  });
});
