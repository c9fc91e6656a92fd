/**
 * Kubernetes services in headless Chromium (issue 11): a user connects the Kubernetes stand-in, opens its dashboard,
 * creates a service on an image pushed to Debian's real Distribution registry (test-support's startRegistry), adds it
 * to the cluster through the deploy dialog (its rules first: version, namespace, environment rows), follows the
 * rollout, reads the pods' logs and events, redeploys a newer version (the history says 1.0.0 → 1.1.0) and undeploys
 * it after the confirmation — the Deployment, Service and autoscaler are gone from the cluster.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { deployMessages, serviceMessages } from '@gantry/contracts';
import { startKubeStandin, startRegistry } from '@gantry/test-support';
import { logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';
import { cutLabels, expectFactsFit, onTop, underToasts } from './src/ui.js';

const k = await startKubeStandin({ namespaces: ['team-a'] });
const registry = await startRegistry({ auth: 'htpasswd', users: { pusher: 'Push-Secret-1' } });
await registry.pushImage('team/api', '1.0.0', { created: '2026-01-02T03:04:05.000Z' });
await registry.pushImage('team/api', '1.1.0', { created: '2026-02-02T03:04:05.000Z' });
afterAll(async () => {
  await k.close();
  await registry.stop();
});

const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });
/** From now on, the text of every toast that opens (one stays 5 s, so two deploys' toasts can be on screen together). */
const recordToasts = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { toastsSeen: string[] };
    w.toastsSeen = [];
    const seen = new WeakSet<Element>();
    new MutationObserver(() => {
      document.querySelectorAll('.mantine-Notification-root').forEach((e) => {
        if (seen.has(e)) return;
        seen.add(e);
        w.toastsSeen.push(e.textContent ?? '');
      });
    }).observe(document.body, { childList: true, subtree: true });
  });
const toastsSeen = (page: Page, text: string) =>
  page.evaluate((t) => (window as unknown as { toastsSeen: string[] }).toastsSeen.filter((s) => s.includes(t)).length, text);
const DASHBOARD = '/kubernetes/clusters/standin';

describe('kubernetes services', () => {
  const stack = useStack({
    expectedConsoleErrors: [
      // a cluster page opened before its cluster is connected learns so from the cluster's 404 (its status and namespaces are not asked)
      { match: /status of 404 .*\(\/ms-kube\/projects\/[^/]+\/kubernetes\/standin\)$/, why: 'a cluster not connected yet' },
      // the page of a workload Gantry did not create learns so from its service's, history's, status' and pods' 404s
      {
        match: /status of 404 .*\(\/ms-kube\/projects\/[^/]+\/(kubernetes\/standin\/namespaces\/team-a\/)?microservices\/legacy-worker[/?)]/,
        why: 'a workload Gantry did not create',
      },
      // the deploys the tests have the server refuse (a version the registry does not have)
      { match: /status of 400 .*\/microservices\/nginx\/deploy\)$/, why: 'a deploy the server refuses' },
    ],
  });
  let page: Page;
  /** The overview in a second tab of the same session (the timeline test opens it, the undeploy test reads it). */
  let overview: Page;
  const email = 'sam.service@example.com';
  const password = 'Services1234';

  test('a cluster is connected and its dashboard opens', async () => {
    const idToken = await verifiedUser(stack, { email, password, firstName: 'Sam', lastName: 'Service' });
    const project = await stack.api<{ id: string }>('POST', '/ms-project/projects', { name: 'Dockside', description: 'Services' }, idToken);
    await stack.api(
      'POST',
      `/ms-kube/projects/${project.id}/docker-registries`,
      {
        name: 'local',
        isDefault: true,
        provider: 'DockerRegistryV2',
        credentials: [
          { key: 'registry_url', value: registry.url },
          { key: 'docker_username', value: 'pusher' },
          { key: 'docker_password', value: 'Push-Secret-1', sensitive: true },
        ],
      },
      idToken,
    );
    page = await stack.newPage({ keep: true });
    await logInAndOpenProject(page, email, password, 'Dockside');

    // A cluster page linked before its cluster was connected (an environment's Kubernetes resource) offers to connect it under that name.
    // It asks for the cluster only: its status and namespaces would answer 404 too (the browser logged them).
    const asked: string[] = [];
    const onRequest = (r: { url(): string }) => asked.push(new URL(r.url()).pathname);
    page.on('request', onRequest);
    await page.goto(DASHBOARD);
    await page.getByTestId('cluster-not-connected').getByText('This cluster is not connected').waitFor();
    page.off('request', onRequest);
    expect(asked.filter((p) => p.includes('/kubernetes/standin'))).toEqual([expect.stringMatching(/\/kubernetes\/standin$/)]);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: 'e2e/.artifacts/cluster-not-connected.png', fullPage: true });
    await page.getByTestId('cluster-not-connected').getByRole('button', { name: 'Connect Kubernetes' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByRole('textbox', { name: 'Name', exact: true }).inputValue()).toBe('standin');
    await dialog.getByRole('textbox', { name: 'API server endpoint' }).fill(k.url);
    await dialog.getByLabel('API token').fill(k.adminToken);
    await dialog.getByRole('textbox', { name: 'CA certificate' }).fill(k.caPem);
    await dialog.getByRole('button', { name: 'Connect Cluster' }).click();
    await page.getByRole('heading', { name: 'standin', exact: true }).waitFor();
    await page.getByTestId('cluster-not-connected').waitFor({ state: 'detached' });
    await page.getByTestId('namespaces-card').getByRole('tab', { name: 'team-a' }).click();
    await page.getByTestId('namespaces-card').getByText('No deployment information available').waitFor();

    // The page of a workload Gantry did not create, reached by typing its address, says 'Service not found' once, as its
    // state (it also said so in a toast and in the deployment history's card), with the way back to the cluster.
    const answers = ['/microservices/legacy-worker', '/legacy-worker/status'].map((end) => page.waitForResponse((r) => r.url().endsWith(end)));
    await page.goto(`${DASHBOARD}/namespaces/team-a/legacy-worker/details`);
    await Promise.all(answers);
    const notFound = page.getByTestId('cluster-service-not-found');
    await notFound.getByText(serviceMessages.notFound).waitFor();
    expect(await page.getByText(serviceMessages.notFound).count()).toBe(1);
    await page.screenshot({ path: 'e2e/.artifacts/cluster-service-not-found.png' });
    await notFound.getByRole('link', { name: 'Back to standin' }).click();
    await page.waitForURL(`**${DASHBOARD}`);
  });

  test('a service is created on the pushed image, validated on submit', async () => {
    await page.goto('/kubernetes/services');
    await page.getByRole('heading', { name: 'Services', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Create Service' }).first().click();
    await page.getByRole('heading', { name: 'Create New Service' }).waitFor();
    // The container port's description has the row's width, not the 220 px of its input: it broke onto two lines
    // (after "Kubernetes") with the whole card's width beside it.
    const portHelp = page.getByText("The port the service's Kubernetes Service forwards to");
    const lines = await portHelp.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)));
    expect(lines).toBe(1);
    await page.getByRole('button', { name: 'Create Service' }).click();
    await page.getByText(serviceMessages.nameRequired).waitFor();
    await page.getByText(serviceMessages.descriptionRequired).waitFor();

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('API');
    await page.getByRole('textbox', { name: 'Description' }).fill('The public API');
    // The default registry is chosen already; its repositories come from the real registry.
    await expect.poll(() => page.getByRole('textbox', { name: 'Docker registry' }).inputValue()).toBe('local (default)');
    await page.getByRole('textbox', { name: 'Image repository' }).click();
    await page.getByRole('option', { name: 'team/api', exact: true }).click();
    await page.getByRole('button', { name: 'Add input' }).click();
    await page.getByRole('textbox', { name: 'Input 1 name' }).fill('GREETING');
    await page.getByRole('checkbox', { name: 'Input 1 required' }).check();
    await page.getByRole('button', { name: 'Create Service' }).click();
    await page.getByText(serviceMessages.nameRule).waitFor();

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('api');
    await page.getByRole('button', { name: 'Create Service' }).click();
    await toast(page, serviceMessages.created('api')).waitFor();
    await page.waitForURL('**/kubernetes/services/api');
    expect(await page.getByTestId('service-registry').textContent()).toBe('local');
    expect(await page.getByTestId('service-repository').textContent()).toBe('team/api');
    await page.getByTestId('input-parameters').getByText('GREETING').waitFor();
  });

  test('Add to Cluster deploys a version through the dialog and follows the rollout', async () => {
    const deploy = page.getByRole('button', { name: 'Add to Cluster', exact: true });
    expect(await deploy.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Cluster' }).click();
    await page.getByRole('option', { name: 'standin', exact: true }).click();
    await deploy.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('deploy-form').waitFor();
    // Cancel and Deploy are in sight without scrolling the dialog, its fields scroll above them (the dialog was taller
    // than an 800 px window: both were below it)
    for (const [width, height] of [
      [1280, 800],
      [1099, 700],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const name of ['Cancel', 'Deploy']) {
        await expect.poll(() => onTop(dialog.getByRole('button', { name, exact: true })), { message: `${name} at ${width}×${height}` }).toBe(true);
      }
      await page.screenshot({ path: `e2e/.artifacts/deploy-dialog-${width}x${height}.png` });
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    // the utilization sliders' mark labels, 0% and 100% too, stay inside the slider's column
    const sliders = await dialog.locator('.mantine-Slider-root').all();
    expect(sliders.length).toBe(2);
    for (const slider of sliders) {
      const column = (await slider.locator('xpath=..').boundingBox())!;
      for (const label of await slider.locator('.mantine-Slider-markLabel').all()) {
        const box = (await label.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(column.x);
        expect(box.x + box.width).toBeLessThanOrEqual(column.x + column.width);
      }
    }

    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    await dialog.getByText(deployMessages.versionRequired).waitFor();
    await dialog.getByText(deployMessages.namespaceRequired).waitFor();
    await dialog.getByText(deployMessages.inputRequired('GREETING')).first().waitFor();
    // The messages' toast opens top-right, over the dialog's close button or its first fields: the dialog stays on top.
    await toast(page, deployMessages.inputRequired('GREETING')).waitFor();
    await page.screenshot({ path: 'e2e/.artifacts/deploy-dialog-toast.png' });
    expect(await onTop(dialog.locator('.mantine-Modal-close'))).toBe(true);
    for (const name of ['Version', 'Namespace']) expect(await onTop(dialog.getByRole('textbox', { name })), name).toBe(true);

    // Versions from the registry, newest first.
    await dialog.getByRole('textbox', { name: 'Version' }).click();
    const options = page.getByRole('option');
    await expect.poll(() => options.count()).toBe(2);
    expect(await options.first().textContent()).toMatch(/^1\.1\.0/);
    await page.getByRole('option', { name: /^1\.0\.0/ }).click();
    await dialog.getByRole('textbox', { name: 'Namespace' }).click();
    await page.getByRole('option', { name: 'team-a', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'GREETING' }).fill('hello');

    // An environment row needs its key and value before another is added.
    await dialog.getByRole('button', { name: 'Add variable' }).click();
    await dialog.getByRole('button', { name: 'Add variable' }).click();
    await dialog.getByText(deployMessages.envRowIncomplete).waitFor();
    await dialog.getByRole('textbox', { name: 'Variable 1 key' }).fill('LOG_LEVEL');
    await dialog.getByRole('textbox', { name: 'Variable 1 value' }).fill('debug');

    await recordToasts(page);
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    await toast(page, serviceMessages.deployed('api', 'standin')).waitFor();
    await page.waitForURL(`**${DASHBOARD}`);
    const modal = page.getByTestId('deploying-modal');
    await expect.poll(() => modal.getByTestId('deploying-progress').textContent(), { timeout: 30_000 }).toMatch(/^(\d+) of \1 pods ready in team-a/);
    // at a phone's width the done check stays beside the text's first line (it stood alone on a line above it)
    await page.setViewportSize({ width: 390, height: 844 });
    const [check, text] = await Promise.all([modal.getByTestId('deploying-done').boundingBox(), modal.getByTestId('deploying-progress').boundingBox()]);
    expect(check!.y + check!.height / 2).toBeGreaterThan(text!.y);
    expect(check!.y + check!.height / 2).toBeLessThan(text!.y + 22);
    await modal.screenshot({ path: 'e2e/.artifacts/deploying-modal-390.png' });
    await page.setViewportSize({ width: 1366, height: 900 });
    // the dashboard shows the namespace deployed to, not the first one ('default')
    const card = page.getByTestId('namespaces-card');
    expect(await card.getByRole('tab', { selected: true, includeHidden: true }).textContent()).toMatch(/^team-a/);
    // Told once, not again when the rollout's events or refetches come in.
    expect(await toastsSeen(page, serviceMessages.deployed('api', 'standin'))).toBe(1);
    // The rollout is done: a reload does not show the deploying modal again (the router state survives a reload).
    const statusRead = page.waitForResponse((r) => r.url().endsWith('/namespaces/team-a/microservices/api/status'));
    await page.reload();
    await statusRead;
    await page.getByTestId('namespaces-card').waitFor();
    await page.waitForTimeout(500);
    await page.screenshot({ path: 'e2e/.artifacts/cluster-dashboard-reloaded.png' });
    expect(await modal.count()).toBe(0);
    await recordToasts(page);
    await card.getByRole('tab', { name: /^team-a/ }).click();

    const deployed = k.get('deployments', 'team-a', 'api');
    expect(deployed?.spec.template.spec.containers[0].image).toContain('team/api:1.0.0');
    const row = card.getByRole('row').filter({ hasText: 'api' });
    await expect.poll(() => row.getByTestId('cluster-service-version').textContent(), { timeout: 30_000 }).toBe('1.0.0');
    await expect.poll(() => row.getByTestId('service-health').textContent(), { timeout: 30_000 }).toBe('HEALTHY');
    // the health badge keeps its whole word (its 110 px column cut it to 'HEALT…')
    expect(await cutLabels(row)).toEqual([]);
    // nor after the reload
    expect(await toastsSeen(page, serviceMessages.deployed('api', 'standin'))).toBe(0);
  });

  test('the service in the cluster shows its pods’ logs and events', async () => {
    await page.getByTestId('namespaces-card').getByRole('link', { name: 'api', exact: true }).click();
    await page.waitForURL('**/kubernetes/clusters/standin/namespaces/team-a/api/details');
    await expect.poll(() => page.getByTestId('header-version').textContent()).toBe('1.0.0');
    await expectFactsFit(page, page.getByTestId('cluster-service-header'), 'cluster-service-header');
    await expect.poll(() => page.getByTestId('pod-logs').textContent(), { timeout: 30_000 }).toContain('env GREETING=hello');
    expect(await page.getByTestId('pod-logs').textContent()).toContain('env LOG_LEVEL=debug');
    await page.getByRole('tab', { name: 'Events' }).click();
    await page.getByTestId('service-events').getByText('Started').first().waitFor();
    // the Kubernetes Spec modal shows what deploy applied as YAML documents
    await page.getByRole('button', { name: 'Kubernetes Spec', exact: true }).click();
    const spec = page.getByTestId('kubernetes-spec');
    await expect.poll(() => spec.textContent(), { timeout: 15_000 }).toContain('kind: Deployment');
    const text = (await spec.textContent()) ?? '';
    expect(text).toContain('kind: HorizontalPodAutoscaler');
    expect(text).toContain('---');
    expect(text).not.toContain('"kind"');
    await page.screenshot({ path: 'e2e/.artifacts/service-spec-yaml.png' });
    await page.keyboard.press('Escape');
    await spec.waitFor({ state: 'detached' });
  });

  test('a redeploy runs the newer version, keeps the settings and lands in the history', async () => {
    await page.getByRole('button', { name: 'Redeploy' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('deploy-form').waitFor();
    // The last deploy's values are the dialog's first values; the namespace is given.
    await expect.poll(() => dialog.getByRole('textbox', { name: 'GREETING' }).inputValue()).toBe('hello');
    expect(await dialog.getByRole('textbox', { name: 'Variable 1 key' }).inputValue()).toBe('LOG_LEVEL');
    await dialog.getByRole('textbox', { name: 'Version' }).click();
    await page.getByRole('option', { name: /^1\.1\.0/ }).click();
    // The first deploy's toast may still be open (the steps since take less than its 5 s): this deploy's is the next.
    await expect.poll(() => toast(page, serviceMessages.deployed('api', 'standin')).count(), { timeout: 10_000 }).toBe(0);
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    await toast(page, serviceMessages.deployed('api', 'standin')).waitFor();
    await expect.poll(() => page.getByTestId('header-version').textContent(), { timeout: 30_000 }).toBe('1.1.0');
    await page.getByTestId('deployment-history').getByText('1.0.0 → 1.1.0').waitFor({ timeout: 30_000 });
    expect(await toastsSeen(page, serviceMessages.deployed('api', 'standin'))).toBe(1); // one a deploy (counted since the reload)
  });

  test("the overview's timeline lists both deploys, newest first, and one opens the service in its cluster", async () => {
    const serviceAt = page.url();
    await page.goto('/overview');
    const items = page.getByRole('button', { name: 'Timeline deployment api', exact: true });
    await expect
      .poll(() => items.allInnerTexts(), { timeout: 15_000 })
      .toEqual([
        expect.stringMatching(/^api:1\.1\.0 · deployment to team-a[\s\S]*SUCCEEDED$/),
        expect.stringMatching(/^api:1\.0\.0 · deployment to team-a[\s\S]*SUCCEEDED$/),
      ]);
    // A second tab keeps the overview open while the next test undeploys: its timeline is read again then, and each
    // answer has a newer build on top (added to the server's: this project has no pipeline), as when a teammate's
    // build and the undeploy land together. Keyed alike (the deploys had no id), a deploy's line was left there twice.
    overview = await page.context().newPage();
    await overview.route('**/timeline', async (route) => {
      const response = await route.fetch().catch(() => undefined); // the tab closed meanwhile
      if (!response) return;
      const { events } = (await response.json()) as { events: { projectId: string }[] };
      const build = { type: 'build', projectId: events[0]!.projectId, status: 'SUCCEEDED', timestamp: new Date().toISOString(), buildNumber: 1 };
      await route.fulfill({ response, json: { events: [{ ...build, buildId: crypto.randomUUID(), pipelineName: 'site' }, ...events] } });
    });
    await overview.goto('/overview');
    await overview.getByRole('button', { name: 'Timeline build site', exact: true }).waitFor();
    await items.first().click();
    await page.waitForURL(serviceAt);
    await page.getByTestId('deployment-history').getByText('1.0.0 → 1.1.0').waitFor();
  });

  test('undeploy asks first, then removes what deploy created', async () => {
    await page.getByRole('button', { name: 'Undeploy' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByText('This action cannot be undone').waitFor();
    await confirm.getByRole('button', { name: 'Undeploy' }).click();
    await toast(page, serviceMessages.undeployed('api')).waitFor();
    await overview.bringToFront(); // the user looks at it again
    await expect
      .poll(() => overview.getByRole('button', { name: 'Timeline deployment api', exact: true }).allInnerTexts(), { timeout: 15_000 })
      .toEqual([expect.stringMatching(/^api:1\.1\.0 [\s\S]*UNDEPLOYED$/), expect.stringMatching(/^api:1\.1\.0 /), expect.stringMatching(/^api:1\.0\.0 /)]);
    await overview.close();
    await page.waitForURL(`**${DASHBOARD}`);
    expect(k.get('deployments', 'team-a', 'api')).toBeUndefined();
    expect(k.get('horizontalpodautoscalers', 'team-a', 'api')).toBeUndefined();
    const card = page.getByTestId('namespaces-card');
    await card.getByRole('tab', { name: /team-a/ }).click();
    await card.getByText('No deployment information available').waitFor();
    // The timeline's lines still open the service in its cluster: not deployed there, nothing to undeploy.
    await page.goto(`${DASHBOARD}/namespaces/team-a/api/details`);
    await page.getByTestId('cluster-service-header').getByText('Not deployed').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Undeploy' }).isDisabled()).toBe(true);
  });

  test("clicking a service's item anywhere on its row opens it, a public one's too; its name once, its Edit its form", async () => {
    // Only the name was a link: a click on the row's image or description (the rest of the item) did nothing (seen on the walk).
    await page.goto('/kubernetes/services');
    const table = page.getByTestId('services-table');
    await table.getByRole('row').filter({ hasText: 'api' }).getByText('team/api').click();
    await page.waitForURL('**/kubernetes/services/api');
    await page.getByTestId('service-repository').waitFor();
    await page.goBack();
    await page.getByRole('tab', { name: /^Public Services/ }).click();
    await table.getByRole('row').filter({ hasText: 'NGINX web server' }).getByText('NGINX web server').click();
    await page.waitForURL('**/kubernetes/services/nginx');
    // Back to services from a public service is the Public Services tab again, as is the browser's back from it (both
    // opened My Services: the tab was not in the address; seen on the walk)
    await page.getByRole('link', { name: 'Back to services' }).click();
    await page.waitForURL((u) => u.pathname === '/kubernetes/services' && u.searchParams.get('tab') === 'public');
    expect(await page.getByRole('tab', { name: /^Public Services/ }).getAttribute('aria-selected')).toBe('true');
    await table.getByRole('link', { name: 'nginx', exact: true }).click();
    await page.waitForURL('**/kubernetes/services/nginx');
    await page.goBack();
    await table.getByRole('link', { name: 'nginx', exact: true }).waitFor();
    expect(await page.getByRole('tab', { name: /^Public Services/ }).getAttribute('aria-selected')).toBe('true');
    // the name's link opens the service once: one step back is the list again
    await page.goto('/kubernetes/services');
    await table.getByRole('link', { name: 'api', exact: true }).click();
    await page.waitForURL('**/kubernetes/services/api');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/kubernetes/services');
    await table.getByRole('button', { name: 'Edit service api' }).click();
    await page.waitForURL('**/kubernetes/services/api/edit');
  });

  test("a service's readme is shown as Markdown (a public service's '# nginx' is its heading)", async () => {
    await page.goto('/kubernetes/services/nginx');
    const readme = page.getByTestId('service-readme');
    await readme.getByRole('heading', { name: 'nginx', exact: true }).waitFor();
    expect(await readme.innerText()).not.toContain('# nginx');
  });

  test("a public image's dialog asks for its version like the others, and a long failure's toast reads whole beside the dialog", async () => {
    await page.goto('/kubernetes/services/nginx');
    await page.getByRole('textbox', { name: 'Cluster' }).click();
    await page.getByRole('option', { name: 'standin', exact: true }).click();
    await page.getByRole('button', { name: 'Add to Cluster', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('deploy-form').waitFor();
    const version = dialog.getByRole('textbox', { name: 'Version' });
    const namespace = dialog.getByRole('textbox', { name: 'Namespace' });
    // No implicit 'latest': a version is required (spec §5, 'Please select a version'); the field's description is
    // under it, so Version stands on Namespace's line.
    await expect.poll(() => version.getAttribute('placeholder')).toBe('Select a version');
    const rowGap = async () => Math.abs((await version.boundingBox())!.y - (await namespace.boundingBox())!.y);
    await expect.poll(rowGap).toBeLessThan(1); // once the dialog's opening transition is over
    // and their errors lie on one line too: Namespace's stood a line above Version's, under its description (seen on the walk)
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    const errorTop = async (text: string) => (await dialog.getByText(text, { exact: true }).boundingBox())!.y;
    const [versionError, namespaceError] = [await errorTop(deployMessages.versionRequired), await errorTop(deployMessages.namespaceRequired)];
    await page.screenshot({ path: 'e2e/.artifacts/deploy-dialog-public-errors.png' });
    expect(Math.abs(versionError - namespaceError)).toBeLessThan(1);

    // A long failure, its cluster reason on a new line (spec §8), while the dialog stays open.
    const message = 'The cluster rejected the request: Deployment.apps "nginx" is invalid: spec.template.spec.containers[0].image: Invalid value';
    const reason = 'admission webhook "validate.images.example.com" denied the request: image nginx:1.27 is not allowed in namespace team-a';
    await page.route('**/microservices/nginx/deploy', (r) =>
      r.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message, kubernetesError: { message: reason } }) }),
    );
    await version.fill('1.27');
    await namespace.click();
    await page.getByRole('option', { name: 'team-a', exact: true }).click();
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    const failure = page.locator('.mantine-Notification-root').filter({ hasText: 'admission webhook' });
    await failure.waitFor();
    await new Promise((r) => setTimeout(r, 600)); // its opening transition
    await page.screenshot({ path: 'e2e/.artifacts/deploy-dialog-long-toast.png' });
    const content = (await dialog.boundingBox())!;
    const box = (await failure.boundingBox())!;
    // beside the dialog, not behind it (a toast lies below a dialog's content) …
    expect(box.x).toBeGreaterThanOrEqual(content.x + content.width);
    expect(await onTop(failure)).toBe(true);
    // … and whole: neither cut at 200 px high nor a word ended in '…'; the reason on its own line
    const fit = await failure.evaluate((el) => {
      const shown = el.parentElement!.getBoundingClientRect();
      const own = el.getBoundingClientRect();
      const text = el.querySelector<HTMLElement>('.mantine-Notification-description')!;
      return { cut: own.bottom - shown.bottom, overflow: text.scrollWidth - text.clientWidth, lines: text.innerText.split('\n') };
    });
    expect(fit.cut).toBeLessThanOrEqual(0.5);
    expect(fit.overflow).toBeLessThanOrEqual(0);
    expect(fit.lines).toEqual([message, reason]);
    await page.unroute('**/microservices/nginx/deploy');
    await page.keyboard.press('Escape');
  });

  test('in a window too narrow to leave a toast room beside the deploy dialog, the failure lies over it, not behind it nor over its header', async () => {
    await page.setViewportSize({ width: 1099, height: 700 });
    // the last test's failure is closed (over the dialog, it would lie over its fields)
    for (const close of await page.locator('.mantine-Notification-root .mantine-CloseButton-root').all()) await close.click();
    await page.getByRole('button', { name: 'Add to Cluster', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('deploy-form').waitFor();
    const message = 'The cluster rejected the request: image nginx:1.27 is not allowed in namespace team-a';
    await page.route('**/microservices/nginx/deploy', (r) => r.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ message }) }));
    await dialog.getByRole('textbox', { name: 'Version' }).fill('1.27');
    await dialog.getByRole('textbox', { name: 'Namespace' }).click();
    await page.getByRole('option', { name: 'team-a', exact: true }).click();
    await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
    const failure = page.locator('.mantine-Notification-root').filter({ hasText: message });
    await failure.waitFor();
    await new Promise((r) => setTimeout(r, 600)); // its opening transition
    await page.screenshot({ path: 'e2e/.artifacts/deploy-dialog-narrow-toast.png' });
    // 160 px either side of the dialog: the toast lay under its content, unread
    const content = (await dialog.boundingBox())!;
    expect(1099 - (content.x + content.width)).toBeLessThan(200 + 28);
    expect(await onTop(failure)).toBe(true);
    // over it, below its header: at the window's top it lay over the close button
    expect(await underToasts(page, dialog.locator('.mantine-Modal-header'))).toEqual([]);
    await page.unroute('**/microservices/nginx/deploy');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test('a reload while the rollout is under way shows the deploying modal again', async () => {
    // No node is ready: the new pods wait to be scheduled, and the rollout stays under way.
    const nodes = k.list('nodes').map((n) => String(n.metadata.name));
    for (const node of nodes) k.setNodeReady(node, false);
    try {
      await page.getByRole('button', { name: 'Add to Cluster', exact: true }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('textbox', { name: 'Version' }).fill('1.27');
      await dialog.getByRole('textbox', { name: 'Namespace' }).click();
      await page.getByRole('option', { name: 'team-a', exact: true }).click();
      await dialog.getByRole('button', { name: 'Deploy', exact: true }).click();
      await page.waitForURL(`**${DASHBOARD}`);
      const progress = () => page.getByTestId('deploying-progress').textContent();
      await expect.poll(progress, { timeout: 30_000 }).toMatch(/^0 of [1-9]\d* pods ready in team-a/);
      await page.reload();
      await expect.poll(progress, { timeout: 30_000 }).toMatch(/^0 of [1-9]\d* pods ready in team-a/);
      await page.getByRole('dialog', { name: 'Deploying nginx' }).waitFor({ state: 'visible' });
      await new Promise((r) => setTimeout(r, 600)); // its opening transition
      await page.screenshot({ path: 'e2e/.artifacts/cluster-dashboard-reloaded-mid-rollout.png' });
      expect(await onTop(page.getByTestId('deploying-progress'))).toBe(true);
      await page.keyboard.press('Escape');
    } finally {
      for (const node of nodes) k.setNodeReady(node, true);
    }
  });
});
