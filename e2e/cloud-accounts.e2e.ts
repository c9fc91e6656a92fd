/**
 * Cloud accounts in headless Chromium (issue 4 slice): an AWS account is verified with STS AssumeRole
 * and its external id — Gantry's own identity from the SDK's default chain, STS at AWS_ENDPOINT_URL_STS
 * (a local stand-in answering in STS's wire format) — before it is saved; a refused role shows the spec's message.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { useAwsStandin } from './src/aws-standin.js';
import { logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';

const sts = await useAwsStandin({ sts: { refuseExternalIds: ['wrong-id'] } });

const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });

describe('cloud accounts', () => {
  const stack = useStack({
    expectedConsoleErrors: [
      // the role STS refuses: the connect is answered 400 with the spec's message, as the test means it to be
      { match: /status of 400 .*\(\/ms-aws\/projects\/[^/]+\/aws-accounts\)$/, why: 'a role STS refuses is refused' },
    ],
  });
  let page: Page;

  test('an AWS account is verified with STS and listed', async () => {
    const email = 'cliff.cloud@example.com';
    const idToken = await verifiedUser(stack, { email, password: 'Cloudy1234', firstName: 'Cliff', lastName: 'Cloud' });
    await stack.api('POST', '/ms-project/projects', { name: 'Cloudy', description: 'Cloud things' }, idToken);
    page = await stack.newPage({ keep: true });
    await logInAndOpenProject(page, email, 'Cloudy1234', 'Cloudy');

    await page.goto('/settings?tab=accounts');
    await page.getByText('No cloud accounts available. Add a new account?').first().waitFor();
    await page.getByRole('button', { name: 'Connect Cloud Account' }).click();
    await page.getByRole('menuitem', { name: /AWS/ }).first().click();
    await page.getByText('Connect or Update AWS Account').waitFor();
    await page.getByRole('textbox', { name: 'Account name' }).fill('production');
    await page.getByRole('textbox', { name: 'IAM role ARN' }).fill('arn:aws:iam::123456789012:role/GantryDeployer');
    await page.getByRole('textbox', { name: 'External ID' }).fill('ext-7');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await toast(page, 'You have successfully connected your AWS account.').waitFor();
    await page.getByText('123456789012').first().waitFor();
    expect(sts.requests.at(-1)!.params).toMatchObject({ Action: 'AssumeRole', RoleArn: 'arn:aws:iam::123456789012:role/GantryDeployer', ExternalId: 'ext-7' });
    expect(sts.requests.at(-1)!.authorization).toMatch(/Credential=AKIAGANTRYE2E\//);
  });

  test("a role STS refuses is not saved and the spec's message is shown", async () => {
    await page.getByRole('button', { name: 'Connect Cloud Account' }).click();
    await page.getByRole('menuitem', { name: /AWS/ }).first().click();
    await page.getByRole('textbox', { name: 'Account name' }).fill('refused');
    await page.getByRole('textbox', { name: 'IAM role ARN' }).fill('arn:aws:iam::210987654321:role/Nope');
    await page.getByRole('textbox', { name: 'External ID' }).fill('wrong-id');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page
      .getByText('We cannot establish a connection with the AWS provider. Please check if your IAM role ARN and external ID are correct and try again.')
      .first()
      .waitFor();
    const { idToken } = await stack.api('POST', '/ms-usermanagement/auth/login', { username: 'cliff.cloud@example.com', password: 'Cloudy1234' });
    const projectId = (await stack.api('GET', '/ms-project/projects', undefined, idToken)).projects[0].id;
    const saved = await stack.api('GET', `/ms-aws/projects/${projectId}/aws-accounts`, undefined, idToken);
    expect(JSON.stringify(saved)).not.toContain('210987654321');
    expect(JSON.stringify(saved)).not.toContain('ext-7'); // the external id is never sent back

    // corrected, it connects, and the refusal's toast leaves with the modal
    await page.getByRole('textbox', { name: 'External ID' }).fill('right-id');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await toast(page, 'You have successfully connected your AWS account.').last().waitFor();
    await expect.poll(() => toast(page, 'We cannot establish a connection').count()).toBe(0);
  });
});
