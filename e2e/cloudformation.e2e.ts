/**
 * CloudFormation environments' main flow in headless Chromium at 1280×800 (issue 14), against the real server whose
 * AWS SDK talks to the AWS stand-in's CloudFormation and S3 (AWS_ENDPOINT_URL_CLOUDFORMATION / _S3, DESIGN §7) with
 * credentials from the STS stand-in: a CloudFormation environment gets the vendor AWS VPC through the resource modal,
 * is Quick Deployed (its nested stack's resources in the events table), updated to a CIDR block EC2 refuses (the
 * update rolls back, its cause in the insights and the events table), and undeployed (the deleted stack's events).
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startAwsStandin } from '@gantry/test-support';
import { connectAwsAccount, useAwsStandin } from './src/aws-standin.js';
import { logInAndOpenProject, setProjectPlan, useStack, verifiedUser } from './src/harness.js';
import { choose, fitsIn } from './src/ui.js';

// each resource 150 ms from in progress to complete: the VPC's nested stack runs ~1.5 s, long enough to be watched
const aws = await startAwsStandin({ cfnStepMs: 150 });
await useAwsStandin({ region: 'eu-west-1', env: aws.env() });
afterAll(() => aws.close());

const shot = (page: Page, name: string) => page.screenshot({ path: `e2e/.artifacts/cfn-${name}.png` });
const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).last();
/** The rows of the details page's events table as 'logicalResourceId resourceType STATUS' (newest first). */
const eventRows = (page: Page) =>
  page
    .getByTestId('stack-events')
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) =>
        Array.from(r.querySelectorAll('td'), (td) => td.textContent ?? '')
          .slice(1, 4)
          .join(' '),
      ),
    );

/** A new CloudFormation environment on the project's AWS account with the vendor AWS VPC as `net`; answers its page's path. */
async function environmentWithVpc(page: Page, o: { name: string; description: string; cidr: string }) {
  await page.goto('/environments/create');
  await page.getByRole('textbox', { name: 'Name' }).fill(o.name);
  await page.getByRole('textbox', { name: 'Description' }).fill(o.description);
  await choose(page, page.getByRole('textbox', { name: 'IaC Tool' }), 'Cloudformation');
  await choose(page, page.getByRole('textbox', { name: 'AWS Account' }), /production/);
  await choose(page, page.getByRole('textbox', { name: 'Region' }), 'eu-west-1');
  await page.getByRole('button', { name: 'Create Environment' }).click();
  await page.waitForURL(/\/environments\/[0-9a-f-]{36}$/);
  const stagePath = new URL(page.url()).pathname;
  await page.getByRole('button', { name: 'Add AWS VPC' }).click();
  await page.getByTestId('resource-name').fill('net');
  await page.getByTestId('input-CidrBlock').fill(o.cidr);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await toast(page, 'Successfully added resource in the environment.').waitFor();
  return stagePath;
}

async function setCidr(page: Page, cidr: string) {
  await page.getByTestId('resource-card').getByRole('button', { name: 'Configure' }).click();
  await page.getByTestId('input-CidrBlock').fill(cidr);
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  await toast(page, 'Successfully updated resource configuration.').waitFor();
}

describe('CloudFormation environments', () => {
  const stack = useStack({ expectedConsoleErrors: [] });
  let page: Page;
  let stageUrl: string;

  test('a CloudFormation environment gets the vendor AWS VPC and is Quick Deployed; the events table shows its nested stack', async () => {
    const email = 'cora.cfn@example.com';
    const idToken = await verifiedUser(stack, { email, password: 'Stacks1234', firstName: 'Cora', lastName: 'Cfn' });
    const { id: projectId } = await stack.api('POST', '/ms-project/projects', { name: 'Network', description: 'Networks' }, idToken);
    // Quick Deploy and the insights are plan features; the first account is the instance's admin
    await setProjectPlan(stack, idToken, projectId, 'PRO');
    await connectAwsAccount(stack, idToken, projectId, 'ext-cfn');
    page = await stack.newPage({ keep: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await logInAndOpenProject(page, email, 'Stacks1234', 'Network');

    stageUrl = await environmentWithVpc(page, { name: 'network', description: 'The shop network', cidr: '10.20.0.0/16' });

    await page.getByRole('button', { name: 'Quick Deploy' }).click();
    await page.waitForURL(/deployment-insights$/);
    const latest = page.getByTestId('deployment-card').first();
    // followed on its details while it runs
    await latest.getByRole('link', { name: 'View logs' }).click();
    await page.waitForURL(/details\?deploymentId=/);
    await page.getByTestId('details-status').getByText('DEPLOYED').waitFor({ timeout: 30_000 });
    // at the end the table holds the stack's last event (its poll stops then: read once more) and the nested stack's own
    await expect.poll(() => eventRows(page).then((rows) => rows[0])).toMatch(/^gantry-network-[0-9a-f]{8} AWS::CloudFormation::Stack CREATE COMPLETE$/);
    const rows = await eventRows(page);
    expect(rows).toContain('net AWS::CloudFormation::Stack CREATE COMPLETE');
    expect(rows).toContain('net/Vpc AWS::EC2::VPC CREATE COMPLETE');
    expect(rows).toContain('net/NatGateway AWS::EC2::NatGateway CREATE COMPLETE');
    await shot(page, 'details-deployed');

    await page.goto(stageUrl);
    await page.getByRole('button', { name: 'Resource net', exact: true }).click();
    await page
      .getByTestId('resource-outputs')
      .getByText(/^vpc-[0-9a-f]+$/)
      .waitFor();
    await shot(page, 'environment-deployed');
  });

  test('an update EC2 refuses rolls back, its cause readable in the insights and the events table', async () => {
    await setCidr(page, '10.30.0.0/33');
    await page.getByRole('button', { name: 'Quick Deploy' }).click();
    await page.waitForURL(/deployment-insights$/);
    const latest = page.getByTestId('deployment-card').first();
    await latest.getByTestId('deployment-status').getByText('ROLLBACKED').waitFor({ timeout: 30_000 });
    await latest.getByTestId('deployment-error').getByText('The stack ended in UPDATE_ROLLBACK_COMPLETE').waitFor();
    // the cause, whole inside the card at 1280 px (the nested stack's ARN beside it pushed it past the card's edge)
    const cause = latest.getByTestId('deployment-errors').getByRole('cell', { name: /^Value \(10\.30\.0\.0\/33\) for parameter cidrBlock is invalid/ });
    await cause.waitFor();
    expect(await fitsIn(cause, latest)).toBe(true);
    // and its table keeps to the card's padding, as the resources' table above it (it ran 13 px past)
    expect(await fitsIn(latest.getByTestId('deployment-errors'), latest.locator('table').first())).toBe(true);
    await shot(page, 'insights-refused');

    await latest.getByRole('link', { name: 'View logs' }).click();
    await page.waitForURL(/details\?deploymentId=/);
    const failed = page.getByTestId('stack-events').locator('tbody tr').filter({ hasText: 'net/Vpc' }).filter({ hasText: 'UPDATE FAILED' });
    const reason = failed.locator('td').last();
    await reason.getByText(/^Value \(10\.30\.0\.0\/33\) for parameter cidrBlock is invalid/).waitFor();
    // the reason column lies in the page, not past its right edge (the table ran 150 px past it at 1280 px)
    expect(await fitsIn(reason, page.locator('main'))).toBe(true);
    await failed.scrollIntoViewIfNeeded();
    await shot(page, 'details-refused');
    // the search by status keeps the failures
    await page.getByRole('textbox', { name: 'Search by status' }).fill('failed');
    await expect.poll(() => eventRows(page)).toEqual(['net AWS::CloudFormation::Stack UPDATE FAILED', 'net/Vpc AWS::EC2::VPC UPDATE FAILED']);
  });

  test('undeployed, the environment is terminated and its details tell the deleted stack', async () => {
    await page.goto(stageUrl);
    await page.getByRole('button', { name: 'Actions of environment network' }).click();
    await page.getByRole('menuitem', { name: 'Undeploy' }).click();
    await page.getByRole('button', { name: 'Undeploy', exact: true }).click();
    await page.waitForURL(/deployment-insights$/);
    const latest = page.getByTestId('deployment-card').first();
    await latest.getByTestId('deployment-status').getByText('TERMINATED').waitFor({ timeout: 30_000 });
    await latest.getByRole('link', { name: 'View logs' }).click();
    await page.waitForURL(/details\?deploymentId=/);
    // read by the deleted stack's id (its name no longer answers): it read 'No data available'
    await expect.poll(() => eventRows(page).then((rows) => rows[0])).toMatch(/^gantry-network-[0-9a-f]{8} AWS::CloudFormation::Stack DELETE COMPLETE$/);
    expect(await eventRows(page)).toContain('net/Vpc AWS::EC2::VPC DELETE COMPLETE');
    await shot(page, 'details-undeployed');
    expect(aws.world.stacks.filter((s) => s.deleted === null)).toEqual([]);
  });

  test('a first create EC2 refuses leaves ROLLBACK_COMPLETE: Quick Deploy says it must be undeployed first, and Undeploy clears it', async () => {
    const brokenUrl = await environmentWithVpc(page, { name: 'broken', description: 'A block EC2 refuses', cidr: '10.0.0.0/8' });
    await page.getByRole('button', { name: 'Quick Deploy' }).click();
    await page.waitForURL(/deployment-insights$/);
    const latest = page.getByTestId('deployment-card').first();
    await latest.getByTestId('deployment-status').getByText('ROLLBACKED').waitFor({ timeout: 30_000 });
    await latest
      .getByTestId('deployment-errors')
      .getByText(/^Value \(10\.0\.0\.0\/8\) for parameter cidrBlock is invalid/)
      .waitFor();

    // spec §4: the prompt, no deploy started
    await page.goto(brokenUrl);
    await page.getByTestId('environment-facts').getByText('ROLLBACKED').waitFor();
    await page.getByRole('button', { name: 'Quick Deploy' }).click();
    const prompt = page.getByRole('dialog').filter({ hasText: 'Stack cannot be deployed' });
    await prompt.getByText('Stack is in ROLLBACK_COMPLETE status, you must undeploy it first').waitFor();
    await shot(page, 'rollback-complete-refused');
    await prompt.getByRole('button', { name: 'OK', exact: true }).click();
    await page.getByRole('button', { name: 'Actions of environment broken' }).click();
    await page.getByRole('menuitem', { name: 'Undeploy' }).click();
    await page.getByRole('button', { name: 'Undeploy', exact: true }).click();
    await page.waitForURL(/deployment-insights$/);
    await latest.getByTestId('deployment-status').getByText('TERMINATED').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('deployment-card').count()).toBe(2);
  });
});
