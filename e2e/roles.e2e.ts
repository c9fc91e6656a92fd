/**
 * Screens follow the role (issue 13): a `read` member of a project with a pipeline and an
 * environment is offered no enabled action on pipelines, environments and access management — each
 * refused action is disabled with a tooltip saying why, or not shown — while the owner still is.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startStsStandin } from '@gantry/test-support';
import { startGitStandin } from '@gantry/test-support/git-standin/index';
import { logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';

const sts = await startStsStandin({});
const savedEnv = { ...process.env };
Object.assign(process.env, {
  AWS_ACCESS_KEY_ID: 'AKIAGANTRYE2E',
  AWS_SECRET_ACCESS_KEY: 'gantry-e2e-secret',
  AWS_REGION: 'eu-central-1',
  AWS_ENDPOINT_URL_STS: sts.url,
});
delete process.env.AWS_PROFILE;
const git = await startGitStandin({ providers: ['github'] });
await git.createRepo('acme/shop', { 'README.md': '# shop\n' });
afterAll(async () => {
  process.env = savedEnv;
  await sts.close();
  await git.close();
});

const OWNER = { email: 'olga.owner@example.com', password: 'Owner12345', firstName: 'Olga', lastName: 'Owner' };
const READER = { email: 'rick.reader@example.com', password: 'Reader12345', firstName: 'Rick', lastName: 'Reader' };
const REFUSED_CHANGE = 'Your permission in this project is Read: this needs Write or higher.';
const REFUSED_USERS = 'Your permission in this project is Read: this needs Admin or higher.';

/** The control is disabled, and hovering it shows why. */
async function refused(page: Page, control: Locator, why: string) {
  await expect.poll(() => control.isDisabled()).toBe(true);
  await control.locator('xpath=ancestor::span[@data-refused][1]').hover();
  await page.getByRole('tooltip').filter({ hasText: why }).waitFor();
  await page.mouse.move(0, 0);
}

describe('a read member sees no enabled action', () => {
  const stack = useStack({ env: git.env });
  let pipelineId: string;
  let stageId: string;

  test('the owner has a pipeline and an environment, and invites a read member', async () => {
    const ownerToken = await verifiedUser(stack, OWNER);
    await verifiedUser(stack, READER);
    const { id: projectId } = await stack.api('POST', '/ms-project/projects', { name: 'Shop', description: 'The web shop' }, ownerToken);
    const p = `/ms-ap/projects/${projectId}`;
    const { gitAccountId } = await stack.api('POST', `${p}/git-accounts`, { code: git.issueCode('github'), type: 'github' }, ownerToken);
    const repo = (await stack.api('GET', `${p}/git-accounts/${gitAccountId}/repositories`, undefined, ownerToken)).repositories[0];
    ({ pipelineId } = await stack.api(
      'POST',
      `${p}/pipelines`,
      { name: 'shop-build', gitAccountId, repositoryUrl: repo.url, branchFilter: 'main', automatedTrigger: false },
      ownerToken,
    ));
    const { id: awsAccountId } = await stack.api(
      'POST',
      `/ms-aws/projects/${projectId}/aws-accounts`,
      { accountName: 'production', iamRole: 'arn:aws:iam::123456789012:role/GantryDeployer', externalId: 'ext-1' },
      ownerToken,
    );
    ({ stageId } = await stack.api(
      'POST',
      `/ms-engine/projects/${projectId}/stages`,
      { name: 'staging', description: 'Staging', cloudProvider: 'aws', awsAccountId, awsRegion: 'eu-central-1' },
      ownerToken,
    ));
    await stack.api('POST', `/ms-project/projects/${projectId}/users`, { email: READER.email, permission: 'read' }, ownerToken);
  });

  test('pipelines: Create Pipeline and Trigger pipeline are disabled with the reason; no edit or delete', async () => {
    const page = await stack.newPage();
    await logInAndOpenProject(page, READER.email, READER.password, 'Shop');
    await page.goto('/pipelines');
    await page.getByText('shop-build').first().waitFor();
    await refused(page, page.getByRole('button', { name: 'Create Pipeline', exact: true }), REFUSED_CHANGE);
    expect(await page.getByRole('link', { name: 'Edit pipeline shop-build' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete pipeline shop-build' }).count()).toBe(0);

    await page.getByRole('link', { name: 'shop-build', exact: true }).click();
    await page.waitForURL(`**/pipelines/${pipelineId}**`);
    await refused(page, page.getByRole('button', { name: 'Trigger pipeline', exact: true }), REFUSED_CHANGE);
    expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await page.getByTestId('spec-mode').getByText('READ-ONLY').waitFor();
  });

  test('environments: Create Environment and Quick Deploy are disabled with the reason; the menu offers nothing', async () => {
    const page = await stack.newPage();
    await logInAndOpenProject(page, READER.email, READER.password, 'Shop');
    await page.goto('/environments');
    await refused(page, page.getByRole('button', { name: 'Create Environment', exact: true }).first(), REFUSED_CHANGE);

    await page.goto(`/environments/${stageId}`);
    await refused(page, page.getByRole('button', { name: 'Quick Deploy', exact: true }), REFUSED_CHANGE);
    await page.getByRole('button', { name: 'Actions of environment staging' }).click();
    for (const item of ['Edit', 'Replicate', 'Undeploy', 'Delete']) {
      const entry = page.getByRole('menuitem', { name: item, exact: true });
      await entry.waitFor();
      expect(await entry.getAttribute('data-disabled'), item).toBe('true');
    }
  });

  test('access management: Add New User is disabled with the reason; no user row has actions', async () => {
    const page = await stack.newPage();
    await logInAndOpenProject(page, READER.email, READER.password, 'Shop');
    await page.goto('/settings?tab=management');
    await page.getByText(OWNER.email).waitFor();
    await refused(page, page.getByRole('button', { name: 'Add New User', exact: true }), REFUSED_USERS);
    expect(await page.getByRole('button', { name: 'Remove', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
  });

  test('the owner is offered the same actions, enabled', async () => {
    const page = await stack.newPage();
    await logInAndOpenProject(page, OWNER.email, OWNER.password, 'Shop');
    await page.goto('/pipelines');
    await page.getByRole('link', { name: 'Create Pipeline', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Edit pipeline shop-build' }).waitFor();
    await page.goto('/settings?tab=management');
    await page.getByText(READER.email).waitFor();
    expect(await page.getByRole('button', { name: 'Add New User', exact: true }).isDisabled()).toBe(false);
  });
});
