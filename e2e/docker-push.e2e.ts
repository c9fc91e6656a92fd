/**
 * The whole image flow in headless Chromium against the real stack: a real Distribution registry (htpasswd
 * auth, test-support's startRegistry) added as a Docker Registry v2 through the UI, a GitHub account on the
 * git stand-in, a pipeline on a repository whose gantry.yaml has a docker-push step → a build on main from
 * the UI → the push step's live log (buildah in the build sandbox) until SUCCEEDED → the pushed reference on
 * the step card → Docker Registries → the registry's repositories → `web`: the tag (the commit's 7-char
 * sha) listed as a version with the commit message (read back from the image's labels) → a service created on the
 * pushed repository in the service form → Add to Cluster (the Kubernetes stand-in): the tag is a version to deploy.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { serviceMessages } from '@gantry/contracts';
import { startKubeStandin, startRegistry } from '@gantry/test-support';
import { startGitStandin } from '@gantry/test-support/git-standin/index';
import { logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';
import { choose } from './src/ui.js';
import { createPipelineInUi } from './src/pipelines.js';

const registry = await startRegistry({ auth: 'htpasswd' });
const standin = await startGitStandin();
const kube = await startKubeStandin({ namespaces: ['web'] });
afterAll(async () => {
  await kube.close();
  await standin.close();
  await registry.stop();
});

const REGISTRY = 'harbor';
const MESSAGE = 'Ship the landing page as an image';
const SPEC = `stages:
  - clone
  - image
steps:
  Clone:
    stage: clone
    type: git-clone
  Push:
    stage: image
    type: docker-push
    image_name: web
    registry: ${REGISTRY}
`;
const DOCKERFILE = 'FROM scratch\nCOPY site/index.html /srv/index.html\nENV PORT=8080\nLABEL org.example.team=web\n';
await standin.createRepo('acme/landing', { 'README.md': '# landing\n' });
const SHA = await standin.commit('acme/landing', { 'gantry.yaml': SPEC, Dockerfile: DOCKERFILE, 'site/index.html': '<h1>hello image</h1>\n' }, MESSAGE);
const TAG = SHA.slice(0, 7);
const REFERENCE = `${registry.host}/web:${TAG}`;

const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });
const LIST = '/kubernetes/docker-registries';

/** Picks an option of a Mantine Select (or a native select) by its label. */

describe('docker-push: registry, pipeline, build, pushed image, registry versions', () => {
  const stack = useStack({ env: standin.env, expectedConsoleErrors: [] });
  let page: Page;
  const email = 'ida.image@example.com';
  const password = 'Imagery1234';
  let pipelineId: string;
  let idToken: string;
  let projectId: string;

  test('a signed-in user adds the registry as a Docker Registry v2', async () => {
    idToken = await verifiedUser(stack, { email, password, firstName: 'Ida', lastName: 'Image' });
    projectId = (
      await stack.api<{ id: string }>('POST', '/ms-project/projects', { name: 'Landing', description: 'The landing page', paymentPlanId: 'STARTER' }, idToken)
    ).id;
    page = await stack.newPage({ keep: true });
    await logInAndOpenProject(page, email, password, 'Landing');

    await page.goto(LIST);
    await page.getByRole('link', { name: 'Add Docker Registry' }).click();
    await page.waitForURL(`**${LIST}/add`);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(REGISTRY);
    await page.getByRole('textbox', { name: 'Docker provider' }).click();
    await page.getByRole('option', { name: /Docker Registry v2/ }).click();
    await page.getByRole('textbox', { name: 'Registry URL' }).fill(registry.url);
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(registry.username);
    await page.getByLabel('Password or token').fill(registry.password);
    await page.getByRole('button', { name: 'Create Registry' }).click();
    await toast(page, `You have successfully added registry ${REGISTRY}`).waitFor();
    await page.waitForURL((u) => u.pathname === LIST);
    await page.getByTestId('registries-table').getByText(registry.url).waitFor();
  });

  test('connects a GitHub account and creates a pipeline on the repository (its gantry.yaml is used)', async () => {
    await page.goto('/settings?tab=git');
    await page.getByRole('button', { name: 'Connect Account' }).click();
    await page.getByRole('button', { name: 'Connect Github Account' }).click();
    await toast(page, 'You have successfully connected your account.').waitFor();

    pipelineId = await createPipelineInUi(page, { name: 'landing-image', gitLogin: standin.user('github').login, repository: 'acme/landing' });
    await expect.poll(() => page.getByTestId('spec-mode').textContent(), { timeout: 15_000 }).not.toBe('EDITABLE');
  });

  test("a build on main follows the push step's live log until SUCCEEDED, and the card shows the pushed image", async () => {
    await page.getByRole('button', { name: 'Trigger pipeline' }).click();
    await choose(page, page.getByLabel('Branch', { exact: true }).first(), 'main');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.waitForURL(/\/pipelines\/[0-9a-f-]{36}\/builds\/[0-9a-f-]{36}/);
    await page.getByRole('button', { name: 'Step Push' }).click();
    const logs = page.getByTestId('step-logs');
    await expect.poll(() => logs.textContent(), { timeout: 120_000 }).toContain(`building web:${TAG}`);
    await expect.poll(() => logs.textContent(), { timeout: 120_000 }).toContain(`pushed ${REFERENCE}@sha256:`);
    const text = (await logs.textContent()) ?? '';
    expect(text).toMatch(/STEP 1\/\d+: FROM scratch/); // buildah bud's own output
    expect(text.slice(text.indexOf(`pushing ${REFERENCE}`))).toMatch(/Copying blob sha256:[\s\S]*Writing manifest to image destination/); // buildah push's
    expect(text).not.toContain(registry.password);
    await expect.poll(() => page.getByText('SUCCEEDED').first().isVisible(), { timeout: 60_000 }).toBe(true);

    await page.keyboard.press('Escape'); // closes the step panel, which covers the board
    await page.getByRole('button', { name: 'Close panel' }).waitFor({ state: 'detached' });
    const card = page.locator('[data-testid="step-card"][data-step="Push"]');
    await expect.poll(() => card.getByTestId('step-image-reference').textContent(), { timeout: 15_000 }).toBe(REFERENCE);
    expect(await card.getByTestId('step-image-reference').getAttribute('title')).toBe(REFERENCE);
    expect(await card.getByTestId('step-image-digest').textContent()).toMatch(new RegExp(`^sha256:[0-9a-f]{7} · ${REGISTRY}$`));
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await card.getByRole('button', { name: 'Copy image reference' }).click();
    await toast(page, 'Copied to clipboard!').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(REFERENCE);
    // no scanner ran: no scan badge on any card
    expect(await page.getByTestId('step-scan').count()).toBe(0);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: 'e2e/.artifacts/docker-push-build.png', fullPage: true });
    await card.screenshot({ path: 'e2e/.artifacts/docker-push-step-card.png' });
  });

  test("the builds tab counts the pushed image in the build's reports (no scan, so no scan badge)", async () => {
    await page.goto(`/pipelines/${pipelineId}/details?tab=builds`);
    const table = page.getByTestId('builds-table');
    await table.getByText('1 image').waitFor();
    expect(await table.getByText(/security issues/).count()).toBe(0);
    await page.screenshot({ path: 'e2e/.artifacts/docker-push-builds-tab.png', fullPage: true });
  });

  test('the registry lists the web repository with the tag as a version, with the commit message', async () => {
    await page.goto(LIST);
    await page.getByRole('button', { name: `Repositories of ${REGISTRY}` }).click();
    const browser = page.getByTestId('registry-browser');
    await browser.getByText('web', { exact: true }).first().click();
    const versions = page.getByTestId('versions-table');
    await versions.getByText(TAG, { exact: true }).first().waitFor({ timeout: 20_000 });
    await versions.getByText(new RegExp(MESSAGE)).waitFor();
    await page.screenshot({ path: 'e2e/.artifacts/docker-push-versions.png', fullPage: true });
  });

  test('a service on the pushed repository offers the tag as a version in Add to Cluster', async () => {
    await stack.api(
      'POST',
      `/ms-kube/projects/${projectId}/kubernetes`,
      { name: 'edge', endpoint: kube.url, apiToken: kube.adminToken, caCertificate: kube.caPem, type: 'personal' },
      idToken,
    );
    await page.goto('/kubernetes/services/create');
    await page.getByRole('heading', { name: 'Create New Service' }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('landing');
    await page.getByRole('textbox', { name: 'Description' }).fill('The landing page image');
    await page.getByRole('textbox', { name: 'Docker registry' }).click();
    await page.getByRole('option', { name: new RegExp(`^${REGISTRY}`) }).click();
    await page.getByRole('textbox', { name: 'Image repository' }).click();
    await page.getByRole('option', { name: 'web', exact: true }).click();
    await page.getByRole('button', { name: 'Create Service' }).click();
    await toast(page, serviceMessages.created('landing')).waitFor();
    await page.waitForURL('**/kubernetes/services/landing');
    expect(await page.getByTestId('service-repository').textContent()).toBe('web');

    await page.getByRole('textbox', { name: 'Cluster' }).click();
    await page.getByRole('option', { name: 'edge', exact: true }).click();
    await page.getByRole('button', { name: 'Add to Cluster', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('deploy-form').waitFor();
    await dialog.getByRole('textbox', { name: 'Version' }).click();
    await page.getByRole('option', { name: new RegExp(`^${TAG}`) }).waitFor({ timeout: 20_000 });
    await page.screenshot({ path: 'e2e/.artifacts/docker-push-deploy-version.png', fullPage: true });
  });
});
