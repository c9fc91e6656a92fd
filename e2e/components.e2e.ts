/**
 * Components in headless Chromium (issue 4 slice): a pipeline with a terraform-build step builds a real
 * module from a repository of the provider stand-in; the user creates a component on it and reads its
 * version, inputs and outputs; vendor components are listed read-only.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startGitStandin } from '@gantry/test-support/git-standin/index';
import { logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';
import { crowdedFactLabels, expectNothingCut } from './src/ui.js';
import { builtPipeline, triggerBuild } from './src/pipelines.js';
import { createNetworkComponent, createNetworkModuleRepo } from './src/network-module.js';

const standin = await startGitStandin({ providers: ['github'] });
await createNetworkModuleRepo(standin, { name: 'network_id', value: 'terraform_data.net.id', description: 'The network' });
afterAll(async () => standin.close());

describe('components', () => {
  const stack = useStack({ env: standin.env, expectedConsoleErrors: [] });
  let page: Page;
  let idToken: string;
  let projectId: string;

  test("a component is created on a pipeline's terraform-build step and shows its version, inputs and outputs", async () => {
    const email = 'cora.component@example.com';
    idToken = await verifiedUser(stack, { email, password: 'Component1', firstName: 'Cora', lastName: 'Comp' });
    ({ id: projectId } = await stack.api('POST', '/ms-project/projects', { name: 'Infra', description: 'Infrastructure' }, idToken));
    const { pipelineId } = await builtPipeline(stack, standin, idToken, projectId, 'network-module');

    page = await stack.newPage({ keep: true });
    await logInAndOpenProject(page, email, 'Component1', 'Infra');

    await page.goto('/components');
    await page.getByText('Infrastructure Components').first().waitFor();
    await page
      .getByRole('link', { name: 'Create Component' })
      .or(page.getByRole('button', { name: 'Create Component' }))
      .first()
      .click();
    await page.waitForURL('**/components/create');
    await createNetworkComponent(page);
    await page.getByTestId('component-inputs').getByText('*name').waitFor();
    // The new component's page starts at its top, not scrolled down where the form's Create button was.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await page.getByTestId('component-outputs').getByText('network_id').waitFor();
    await page.getByText('A private network for the services.').first().waitFor();
    await page.getByTestId('latest-badge').waitFor();

    // The facts take their columns from the card's width (container queries): with the side menu beside the page (1280)
    // or in a drawer (1099), no label wraps or is cut.
    for (const width of [1280, 1099]) {
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(() => crowdedFactLabels(page.getByTestId('component-facts')), { message: `${width} px` }).toEqual([]);
      await page.screenshot({ path: `e2e/.artifacts/component-facts-${width}.png` });
    }
    await page.setViewportSize({ width: 1366, height: 900 });

    // A build quicker than the page's 5 s poll of the running build (about 1 s here): its version joins the picker as it
    // ends (it stayed out until a reload)
    const buildId = await triggerBuild(stack, idToken, projectId, pipelineId);
    const builds = `/ms-ap/projects/${projectId}/pipelines/${pipelineId}/builds/${buildId}`;
    await expect.poll(async () => (await stack.api('GET', builds, undefined, idToken)).status, { timeout: 60_000 }).toBe('SUCCEEDED');
    const buildNumbers = async () => {
      await page.getByRole('textbox', { name: 'Version' }).click();
      const numbers = await page.getByRole('option').evaluateAll((options) => options.map((o) => o.textContent?.match(/#\d+/)?.[0]));
      await page.keyboard.press('Escape');
      return numbers;
    };
    await expect.poll(buildNumbers, { timeout: 3000 }).toEqual(['#2', '#1']);
  });

  test('vendor components are listed read-only in the public tab', async () => {
    await page.goto('/components?tab=public');
    await page.getByText('Static site bucket').waitFor();
    await expect.poll(() => page.getByRole('button', { name: /Actions of component/ }).count()).toBe(0);
  });

  test('the cards take as many columns as the grid itself holds, with the side menu beside it or not', async () => {
    const grid = page.getByTestId('components-grid');
    await grid.waitFor();
    const columns = () => grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
    const narrowest = () => grid.evaluate((el) => Math.min(...Array.from(el.children, (c) => c.getBoundingClientRect().width)));
    // 1280: the menu beside the page leaves the grid 866 px, two cards (the window's lg breakpoint gave three of 275 px);
    // 1099: the menu goes into a drawer, the grid has 947 px, three cards (the window's sm breakpoint gave two).
    for (const [width, expected] of [
      [1280, 2],
      [1099, 3],
      [1366, 3],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(columns, { message: `${width} px` }).toBe(expected);
      expect(await narrowest()).toBeGreaterThanOrEqual(300);
      if (width === 1280) await page.screenshot({ path: 'e2e/.artifacts/components-grid-1280.png' });
    }
  });

  test("a README's table shows as a table and its emphasis as emphasis, not as the markdown's pipes and asterisks", async () => {
    await page.getByText('Service config', { exact: true }).click();
    const readme = page.getByTestId('component-readme');
    await readme.getByTestId('readme-table').getByRole('cell', { name: 'Name of the service' }).waitFor();
    expect(await readme.getByTestId('readme-table').getByRole('row').count()).toBe(7); // the head and six inputs
    await readme.locator('em', { hasText: 'Static site bucket' }).waitFor();
    expect(await readme.innerText()).not.toMatch(/\| --- \||\*Static site bucket\*/);
  });

  test('a component shared with another project reads "Provided by project Infra" there, once, and has no menu', async () => {
    const { id: mobileId } = await stack.api('POST', '/ms-project/projects', { name: 'Mobile', description: 'The mobile app' }, idToken);
    const { components } = await stack.api('GET', `/ms-engine/projects/${projectId}/components`, undefined, idToken);
    const network = components.find((c: { name: string }) => c.name === 'network');
    await stack.api('POST', `/ms-engine/projects/${projectId}/components/${network.id}/share`, { granteeId: mobileId }, idToken);

    await page.goto('/projects');
    await page.getByRole('button', { name: 'Open project Mobile', exact: true }).click();
    await page.waitForURL('**/overview');
    await page.goto('/components');
    // the server's text is shown as it is (it read 'Provided by project Provided by project Infra')
    await expect.poll(() => page.getByTestId('component-provided-by').allInnerTexts()).toEqual(['Provided by project Infra']);
    expect(await page.getByRole('button', { name: /Actions of component/ }).count()).toBe(0);
    await expectNothingCut(page, page.locator('main'));
    await page.getByText('network', { exact: true }).click();
    await page.waitForURL(`**/components/${network.id}`);
    await page.getByText('Provided by project Infra', { exact: true }).waitFor();
    expect(await page.getByText(/Provided by project Provided/).count()).toBe(0);
  });
});
