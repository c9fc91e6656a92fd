/**
 * Screens follow the role (issue 13): a `read` member of a project with a pipeline and an
 * environment is offered no enabled action on pipelines, environments and access management — each
 * refused action is disabled with a tooltip saying why, or not shown — while the owner still is.
 * The same on a paid plan for the later areas: registries, clusters, services, the Cloud Waste
 * Manager (advisor, saving schedules, cost explorer and its reports) and Slack.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { COST_TAG_KEY, scheduleToCron } from '@gantry/contracts';
import { startKubeStandin, startRegistry } from '@gantry/test-support';
import { startGitStandin } from '@gantry/test-support/git-standin/index';
import { connectAwsAccount, useAwsStandin } from './src/aws-standin.js';
import { logInAndOpenProject, setProjectPlan, useStack, verifiedUser } from './src/harness.js';
import { formHandle, formRoutes as webFormRoutes } from '../apps/web/src/ui/form-routes.js';
import { manualPipeline } from './src/pipelines.js';

/** Every create and edit form route of the web's route tables (a form added later is walked too). */
const formRoutes = webFormRoutes();

await useAwsStandin();
const git = await startGitStandin({ providers: ['github'] });
await git.createRepo('acme/shop', { 'README.md': '# shop\n' });
const kube = await startKubeStandin({ namespaces: ['team-a'] });
const registry = await startRegistry({ auth: 'htpasswd', users: { pusher: 'Push-Secret-1' } });
await registry.pushImage('team/api', '1.0.0');
afterAll(async () => {
  await git.close();
  await kube.close();
  await registry.stop();
});

const OWNER = { email: 'olga.owner@example.com', password: 'Owner12345', firstName: 'Olga', lastName: 'Owner' };
const READER = { email: 'rick.reader@example.com', password: 'Reader12345', firstName: 'Rick', lastName: 'Reader' };
const REFUSED_CHANGE = 'Your permission in this project is Read: this needs Write or higher.';
const REFUSED_USERS = 'Your permission in this project is Read: this needs Admin or higher.';

/** Names of controls that change something (create, edit, delete, deploy, stop/start, send…), or open a menu of them. */
const ACTION =
  /^(create|add|new|connect|edit|update|delete|remove|deploy|redeploy|undeploy|refresh|start|stop|send|trigger|quick deploy|subscribe|redeem|get the deal)\b|^actions of /i;

/** In the page's content, no action is offered enabled: such buttons are disabled, and no link leads to a form. */
async function noEnabledAction(page: Page) {
  const main = page.locator('main');
  const buttons = main.getByRole('button', { name: ACTION });
  for (const button of await buttons.all()) expect(await button.isDisabled(), `${await button.textContent()} is enabled`).toBe(true);
  const links = await main.getByRole('link', { name: ACTION }).allTextContents();
  expect(links, 'links to an action').toEqual([]);
}

/** The control is disabled, and hovering it shows why. */
async function refused(page: Page, control: Locator, why: string) {
  await expect.poll(() => control.isDisabled()).toBe(true);
  await control.locator('xpath=ancestor::span[@data-refused][1]').hover();
  await page.getByRole('tooltip').filter({ hasText: why }).waitFor();
  await page.mouse.move(0, 0);
}

describe('a read member sees no enabled action', () => {
  const stack = useStack({ env: git.env, expectedConsoleErrors: [] });
  let pipelineId: string;
  let stageId: string;
  let ownerToken: string;
  let projectId: string;
  let awsAccountId: string;

  test('the owner has a pipeline and an environment, and invites a read member', async () => {
    ownerToken = await verifiedUser(stack, OWNER);
    await verifiedUser(stack, READER);
    ({ id: projectId } = await stack.api('POST', '/ms-project/projects', { name: 'Shop', description: 'The web shop' }, ownerToken));
    pipelineId = await manualPipeline(stack, git, ownerToken, projectId, 'shop-build');
    ({ id: awsAccountId } = await connectAwsAccount(stack, ownerToken, projectId, 'ext-1'));
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

  test('on a paid plan the owner adds a registry, a cluster, a service, a saving schedule, a cost report', async () => {
    // the first account of the instance is its admin
    await setProjectPlan(stack, ownerToken, projectId, 'PRO');
    const kubeApi = `/ms-kube/projects/${projectId}`;
    const registryCredentials = [
      { key: 'registry_url', value: registry.url },
      { key: 'docker_username', value: 'pusher' },
      { key: 'docker_password', value: 'Push-Secret-1', sensitive: true },
    ];
    await stack.api(
      'POST',
      `${kubeApi}/docker-registries`,
      { name: 'local', isDefault: true, provider: 'DockerRegistryV2', credentials: registryCredentials },
      ownerToken,
    );
    await stack.api(
      'POST',
      `${kubeApi}/kubernetes`,
      { name: 'main', endpoint: kube.url, apiToken: kube.adminToken, type: 'personal', caCertificate: kube.caPem },
      ownerToken,
    );
    await stack.api('POST', `${kubeApi}/microservices`, { name: 'api', description: 'The API', registry: 'local', imageRepository: 'team/api' }, ownerToken);
    const cost = `/ms-cloud-cost-optimizer/projects/${projectId}`;
    await stack.api(
      'POST',
      `${cost}/schedules`,
      {
        name: 'office hours',
        ...scheduleToCron({ days: ['MON', 'FRI'], wakeHour: 8, sleepHour: 18 }, 0),
        timezone: 'Europe/Berlin',
        awsAccountId,
        awsRegion: 'eu-central-1',
        resourcesTagKey: COST_TAG_KEY,
        resourcesTagValue: 'staging',
      },
      ownerToken,
    );
    await stack.api(
      'POST',
      `${cost}/reports`,
      {
        reportName: 'Weekly costs',
        awsAccountIds: [awsAccountId],
        regions: ['eu-central-1'],
        emails: [OWNER.email],
        granularity: 'WEEKLY',
        costAllocationTag: null,
      },
      ownerToken,
    );
  });

  test('registries, clusters and services: nothing to add, edit, delete or deploy', async () => {
    const page = await stack.newPage();
    await logInAndOpenProject(page, READER.email, READER.password, 'Shop');
    await page.goto('/kubernetes/docker-registries');
    await page.getByText('local', { exact: true }).first().waitFor();
    await noEnabledAction(page);

    await page.goto('/kubernetes/clusters');
    await page.getByRole('link', { name: 'main', exact: true }).waitFor();
    await noEnabledAction(page);
    await page.goto('/kubernetes/clusters/main');
    await page.getByRole('heading', { name: 'main', exact: true }).waitFor();
    await page.getByTestId('namespaces-card').waitFor();
    await noEnabledAction(page);

    await page.goto('/overview');
    await page.getByText('shop-build').first().waitFor();
    // the cluster runs nothing yet: its bars say so rather than 0 %
    await expect.poll(() => page.getByTestId('summary-deployments').textContent()).toBe('No deployments yet');
    await expect.poll(() => page.getByTestId('summary-pods').textContent()).toBe('No pods yet');
    await noEnabledAction(page);

    await page.goto('/kubernetes/services');
    await page.getByRole('link', { name: 'api', exact: true }).waitFor();
    await noEnabledAction(page);
    await page.getByRole('link', { name: 'api', exact: true }).click();
    await page.getByTestId('add-to-cluster').waitFor();
    await refused(page, page.getByRole('button', { name: 'Add to Cluster', exact: true }), REFUSED_CHANGE);
    await noEnabledAction(page);
  });

  test('Cloud Waste Manager: no schedule to create, switch, stop or start; no report to create, send or delete; Refresh refused', async () => {
    const page = await stack.newPage();
    await logInAndOpenProject(page, READER.email, READER.password, 'Shop');
    await page.goto('/tools/schedules');
    await page.getByTestId('schedules-table').getByText('office hours').waitFor();
    expect(await page.getByRole('switch').count()).toBe(0);
    await noEnabledAction(page);

    await page.goto('/tools/advisor');
    await page.getByRole('button', { name: 'Get statistics', exact: true }).waitFor();
    await noEnabledAction(page);

    await page.goto('/tools/cost-explorer');
    await page.getByTestId('reports-table').getByText('Weekly costs').waitFor();
    await refused(page, page.getByRole('button', { name: 'Refresh', exact: true }).first(), REFUSED_CHANGE);
    await noEnabledAction(page);
  });

  test('every create and edit form opened by its URL shows the read-only notice and the way back, not a form', async () => {
    expect(formRoutes.length).toBeGreaterThan(10);
    const params: Record<string, string> = { pipelineId, stageId, registryName: 'local', microserviceName: 'api' };
    const page = await stack.newPage();
    await logInAndOpenProject(page, READER.email, READER.password, 'Shop');
    for (const route of formRoutes) {
      // an id the setup has no row for (a component, a schedule) still opens its form's route
      const url = route.path!.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? 'some-id'));
      await page.goto(url);
      const notice = page.getByTestId('read-only-notice');
      await notice.getByText(REFUSED_CHANGE).waitFor();
      expect(await page.locator('main form').count(), url).toBe(0);
      const back = notice.getByRole('link', { name: 'Back', exact: true });
      expect(await back.getAttribute('href'), url).toBe(formHandle(route)?.back);
    }
    await page.getByTestId('read-only-notice').getByRole('link', { name: 'Back', exact: true }).click();
    await page.waitForURL((u) => u.pathname === formHandle(formRoutes.at(-1)!)?.back);
  });

  test('Slack: Add integration is refused with the reason; billing is the owner’s', async () => {
    const page = await stack.newPage();
    await logInAndOpenProject(page, READER.email, READER.password, 'Shop');
    await page.goto('/settings?tab=notifications');
    await refused(page, page.getByRole('button', { name: 'Add integration', exact: true }), REFUSED_CHANGE);
    // nor is the field asked for (its input was open to typing a webhook that could not be added)
    await expect.poll(() => page.getByRole('textbox', { name: 'Slack incoming webhook URL', exact: true }).isDisabled()).toBe(true);
    await page.goto('/settings?tab=billing');
    await refused(
      page,
      page.getByRole('button', { name: 'Redeem', exact: true }),
      'Your permission in this project is Read: only the project’s owners can do this.',
    );
    await expect.poll(() => page.getByRole('textbox', { name: 'Promo code', exact: true }).isDisabled()).toBe(true);
  });

  test('the owner is offered the same actions, enabled', async () => {
    const page = await stack.newPage();
    await logInAndOpenProject(page, OWNER.email, OWNER.password, 'Shop');
    await page.goto('/pipelines');
    await page.getByRole('link', { name: 'Create Pipeline', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Edit pipeline shop-build' }).waitFor();
    await page.goto('/pipelines/create');
    await page.locator('main form').getByRole('button', { name: 'Create Pipeline', exact: true }).waitFor();
    expect(await page.getByTestId('read-only-notice').count()).toBe(0);
    await page.goto(`/pipelines/${pipelineId}/edit`);
    await page.locator('main form').getByRole('button', { name: 'Update Pipeline', exact: true }).waitFor();
    await page.goto('/pipelines');
    await page.goto('/settings?tab=management');
    await page.getByText(READER.email).waitFor();
    expect(await page.getByRole('button', { name: 'Add New User', exact: true }).isDisabled()).toBe(false);
    await page.goto('/settings?tab=notifications');
    await expect.poll(() => page.getByRole('textbox', { name: 'Slack incoming webhook URL', exact: true }).isDisabled()).toBe(false);
    await page.goto('/settings?tab=billing');
    await expect.poll(() => page.getByRole('textbox', { name: 'Promo code', exact: true }).isDisabled()).toBe(false);
    // the check the reader passed finds the owner's actions
    await page.goto('/kubernetes/docker-registries');
    await page.getByText('local', { exact: true }).first().waitFor();
    expect(await page.locator('main').getByRole('link', { name: ACTION }).allTextContents()).toContain('Add Docker Registry');
    await page.goto('/tools/schedules');
    await page.getByTestId('schedules-table').getByText('office hours').waitFor();
    expect(await page.locator('main').getByRole('button', { name: ACTION }).count()).toBeGreaterThan(0);
  });
});
