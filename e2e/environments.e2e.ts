/**
 * The Infrastructure Builder's main flow in headless Chromium against the real server and the real
 * terraform CLI (issue 4): a component built by a real pipeline from a repository of the git provider
 * stand-in is created, an environment on an AWS account (STS stand-in) gets it and a vendor component
 * through the modal — one referencing the other's output — then a plan is created and deployed, the live
 * log, the insights and the outputs read, and the environment undeployed and deleted.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Locator, Page, Response } from 'playwright-core';
import { startGitStandin } from '@gantry/test-support/git-standin/index';
import { connectAwsAccount, useAwsStandin } from './src/aws-standin.js';
import { logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';
import { choose, crowdedFactLabels, expectFactsFit, fitsIn, pointThroughToast, textLines, toastsOverBlocks, underToasts } from './src/ui.js';
import { builtPipeline } from './src/pipelines.js';
import { createNetworkComponent, createNetworkModuleRepo } from './src/network-module.js';

await useAwsStandin();
const git = await startGitStandin({ providers: ['github'] });
await createNetworkModuleRepo(git, { name: 'network_url', value: '"http://${var.name}.internal"', description: 'Where the network answers' });
afterAll(async () => {
  await git.close();
});

const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).last();
/** The side list's vendor rows whose badge is cut ('VEND…', or past the card's edge), or whose cut name has not its whole text as title. */
const cutVendorRows = (sideList: Locator) =>
  sideList.evaluate((list) =>
    Array.from(list.querySelectorAll('button')).flatMap((row) => {
      const badge = row.querySelector('.mantine-Badge-label');
      const name = row.querySelector('p');
      if (!badge || !name) return [];
      const cut = (e: Element) => e.scrollWidth > e.clientWidth + 0.5;
      const past = badge.getBoundingClientRect().right > list.getBoundingClientRect().right;
      return cut(badge) || past || (cut(name) && name.getAttribute('title') !== name.textContent) ? [`${name.textContent}: ${badge.textContent}`] : [];
    }),
  );

/** The message Mantine shows under a field (its wrapper's error), '' when none. */
const fieldError = (field: Locator) =>
  field.evaluate((el) => el.closest('.mantine-InputWrapper-root')?.querySelector('.mantine-InputWrapper-error')?.textContent ?? '');

const shot = async (page: Page, name: string) => {
  if (process.env.GANTRY_E2E_SCREENSHOTS) await page.screenshot({ path: `${process.env.GANTRY_E2E_SCREENSHOTS}/${name}.png`, fullPage: true });
};

describe('environments and deployments', () => {
  const stack = useStack({ env: git.env, expectedConsoleErrors: [] });
  let page: Page;
  let stageUrl: string;
  /** The plan's deploy (the undeploy test opens its page once it is no longer the latest). */
  let deployedId: string;

  test('a component built by a pipeline and an environment on an AWS account get two resources through the modal, one referencing the other', async () => {
    const email = 'erin.env@example.com';
    const idToken = await verifiedUser(stack, { email, password: 'Environ1234', firstName: 'Erin', lastName: 'Env' });
    const { id: projectId } = await stack.api('POST', '/ms-project/projects', { name: 'Infra', description: 'Infrastructure' }, idToken);
    await connectAwsAccount(stack, idToken, projectId, 'ext-9');
    await builtPipeline(stack, git, idToken, projectId, 'network-module');

    page = await stack.newPage({ keep: true });
    await logInAndOpenProject(page, email, 'Environ1234', 'Infra');

    // the component, from the pipeline's terraform-build step
    await page.goto('/components/create');
    await createNetworkComponent(page);
    await page.getByTestId('component-outputs').getByText('network_url').waitFor();

    await page.goto('/environments');
    await page.getByRole('heading', { name: 'Infrastucture Builder' }).waitFor();
    await shot(page, 'environments-empty');
    await page.getByRole('link', { name: 'Create Environment' }).first().click();
    await page.waitForURL('**/environments/create');
    await page.getByRole('button', { name: 'Create Environment' }).click();
    await page.getByText('Environment name must be 3 to 20 characters').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('staging');
    await page.getByRole('textbox', { name: 'Description' }).fill('Staging for the web shop');
    await choose(page, page.getByRole('textbox', { name: 'AWS Account' }), /production/);
    await choose(page, page.getByRole('textbox', { name: 'Region' }), 'eu-central-1');
    await shot(page, 'environment-form');
    await page.getByRole('button', { name: 'Create Environment' }).click();
    await page.waitForURL(/\/environments\/[0-9a-f-]{36}$/);
    stageUrl = new URL(page.url()).pathname;
    await page.getByText('Review the components on the right and choose which to add to this environment.').waitFor();
    // not deployed yet, on Starter: the insights offer the first deployment, and no upgrade (the plan hides nothing yet)
    await page.goto(`${stageUrl}/deployment-insights`);
    await page.getByText('No deployments yet').waitFor();
    expect(await page.getByTestId('deployment-list').getByRole('link').allInnerTexts()).toEqual(['Create new Deployment']);
    // the deployment time's title and total read on one line each in its narrow column at 1280 px (the title wrapped)
    await page.setViewportSize({ width: 1280, height: 900 });
    const timePanel = page.getByTestId('deployment-time-panel');
    await timePanel.getByText(/min in all$/).waitFor();
    expect(await textLines(timePanel.getByText('Deployment time this month'))).toBe(1);
    expect(await textLines(timePanel.getByText(/min in all$/))).toBe(1);
    await timePanel.screenshot({ path: 'e2e/.artifacts/deployment-time-1280.png' });
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('link', { name: 'Create new Deployment' }).click();
    await page.waitForURL((u) => u.pathname === stageUrl);
    await page.getByText('Review the components on the right and choose which to add to this environment.').waitFor();
    expect(await toast(page, 'Upgrade your plan').count()).toBe(0);
    // the side list's search box stays inside its card (it ran past the card's padding at this width)
    const sideList = page.getByTestId('component-side-list');
    const [card, search] = await Promise.all([sideList.boundingBox(), sideList.getByRole('textbox', { name: 'Search components' }).boundingBox()]);
    expect(search!.x + search!.width).toBeLessThanOrEqual(card!.x + card!.width - 12);
    // a long name gives way to the vendor badge (it showed 'VEND…'), and says itself whole in its title
    for (const width of [1280, 1100]) {
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(() => cutVendorRows(sideList), { message: `${width} px` }).toEqual([]);
      await sideList.screenshot({ path: `e2e/.artifacts/component-side-list-${width}.png` });
    }
    // a toast covers none of the header's buttons and facts, read right after an action (it lay over the facts, 1099 px)
    await page.setViewportSize({ width: 1099, height: 800 });

    await page.getByRole('button', { name: 'Add network' }).click();
    await page.getByText('Create resource').waitFor();
    // the component's input called name has its own message, the resource's name its own (the input said the resource name's rule)
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => fieldError(page.getByTestId('input-name'))).toBe('name is required');
    expect(await fieldError(page.getByTestId('resource-name'))).toMatch(/^Resource name must be 3 to 30/);
    await expect.poll(() => toast(page, 'name is required').innerText()).toMatch(/starting with a letter\nname is required$/);
    await page.getByTestId('resource-name').fill('net');
    await page.getByTestId('input-name').fill('shop-net');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await toast(page, 'Successfully added resource in the environment.').waitFor();
    expect(await underToasts(page, page.getByTestId('page-header'), page.getByTestId('environment-facts'))).toEqual([]);
    await page.screenshot({ path: 'e2e/.artifacts/environment-toast-1099.png' });
    // below the facts it lies over the new resource's card, at its actions' end: pointed at, it shows them and lets
    // the click through (the toast hid the card's actions menu for 5 s, and took its clicks)
    const actions = page.getByRole('button', { name: 'Actions of resource net' });
    expect(await underToasts(page, page.getByTestId('resource-card'))).toContainEqual(expect.stringMatching(/^Actions of resource net under /));
    const at = await pointThroughToast(page, actions);
    await page.screenshot({ path: 'e2e/.artifacts/environment-toast-see-through-1099.png' });
    await page.mouse.click(at.x, at.y);
    await page.getByRole('menuitem', { name: 'Configure' }).waitFor();
    await page.keyboard.press('Escape');
    await page.mouse.move(0, 0);
    await page.setViewportSize({ width: 1366, height: 900 });

    await page.getByRole('button', { name: 'Add Service config' }).click();
    // the messages together in one toast, one a line; a message of a field corrected since leaves with it
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await expect.poll(() => toast(page, 'service_name is required').innerText()).toMatch(/starting with a letter\nservice_name is required$/);
    await page.getByTestId('resource-name').fill('app');
    await page.getByTestId('input-service_name').fill('shop');
    await page.getByTestId('mode-backend_url').getByText('Reference').click();
    await shot(page, 'resource-modal');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Must select from suggested items in select mode*').first().waitFor();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Resource name must be' }).count()).toBe(0);
    await choose(page, page.getByTestId('reference-backend_url'), /net\.network_url/);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await toast(page, 'Successfully added resource in the environment.').waitFor();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Must select from suggested items' }).count()).toBe(0);
    await expect.poll(() => page.getByTestId('resource-card').count()).toBe(2);
    await shot(page, 'environment-details');
  });

  test('a plan is created and deployed; the live log, the insights and the outputs follow', async () => {
    await page.getByRole('button', { name: 'Create Plan' }).click();
    await page.waitForURL(/\/plan\?planId=/);
    await page.getByTestId('plan-summary').getByText('2 to add, 0 to change, 0 to destroy').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('plan-changes').getByRole('row').count()).toBe(3);
    await shot(page, 'plan');
    // nor on the plan's page: its Deploy and Last Deployed (at 1099 px toasts started just below the header, over the facts)
    await page.setViewportSize({ width: 1099, height: 800 });
    await page.getByTestId('plan-facts').getByRole('button', { name: 'Copy' }).click();
    await toast(page, 'Copied to clipboard!').waitFor();
    expect(await underToasts(page, page.getByTestId('page-header'), page.getByTestId('plan-facts'))).toEqual([]);
    await page.screenshot({ path: 'e2e/.artifacts/plan-toast-1099.png' });
    await expectFactsFit(page, page.getByTestId('plan-facts'), 'plan-facts');
    await page.getByRole('button', { name: 'Deploy' }).click();
    await page.waitForURL(/\/details\?deploymentId=[0-9a-f-]{36}$/);
    deployedId = new URL(page.url()).searchParams.get('deploymentId')!;
    await page
      .getByTestId('terraform-log')
      .getByText(/Apply complete!/)
      .waitFor({ timeout: 60_000 });
    await page.getByTestId('details-status').getByText('DEPLOYED').waitFor({ timeout: 30_000 });
    await shot(page, 'deployment-details');

    await page.goto(`${stageUrl}/deployment-insights`);
    await page.getByTestId('deployment-card').first().getByText('DEPLOYED').waitFor();
    await page.getByTestId('deployment-card').first().getByText('current').waitFor();
    await shot(page, 'insights');
    // On Starter the insights show the latest deployment with the plan's info toast: at 1366×768 it opened over the
    // deployment time's title and the card's duration; it now opens below them
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.reload();
    await toast(page, 'Upgrade your plan to see more details for your deployments').waitFor();
    expect(
      await toastsOverBlocks(page, page.getByTestId('page-header'), page.getByTestId('deployment-list'), page.getByTestId('deployment-time-panel')),
    ).toEqual([]);
    await page.screenshot({ path: 'e2e/.artifacts/insights-plan-toast-1366x768.png' });
    await page.setViewportSize({ width: 1099, height: 800 });
    const netRow = page
      .getByTestId('deployment-card')
      .first()
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'net', exact: true }) });
    const deployedVersion = await netRow.getByRole('cell').nth(2).innerText();
    expect(deployedVersion).toMatch(/^[0-9a-f]{7}$/);

    await page.goto(stageUrl);
    await page.getByRole('button', { name: 'Resource net', exact: true }).click();
    await page.getByTestId('resource-outputs').getByText('http://shop-net.internal').waitFor();
    // the card tells the deployed commit, and its body the branch, the configured version's commit and that version (spec §2)
    const netCard = page.getByTestId('resource-card').filter({ has: page.getByRole('button', { name: 'Resource net', exact: true }) });
    await expect.poll(() => netCard.getByTestId('deployed-commit').innerText()).toBe(deployedVersion);
    const facts = netCard.getByTestId('resource-facts');
    await expect.poll(() => facts.innerText()).toMatch(new RegExp(`^Branch\n+main\n+Commit\n+${deployedVersion}\n+Configured version\n+LATEST\n+`));
    // a fixed version reads as the modal offers it, its commit's 7 characters (it read the build id's)
    await netCard.getByRole('button', { name: 'Configure' }).click();
    await choose(page, page.getByRole('dialog').getByRole('textbox', { name: 'Version' }), deployedVersion);
    await page.getByRole('button', { name: 'Update', exact: true }).click();
    await toast(page, 'Successfully updated resource configuration.').waitFor();
    await expect.poll(() => facts.innerText()).toMatch(new RegExp(`Configured version\n+${deployedVersion}\n+`));
    // The page's success closes when the user leaves for the insights (it stayed its 5 s there, over the events' Reason
    // column); read a moment later, it is not the announcement of the page the user goes to.
    await page.waitForTimeout(1200);
    expect(await toast(page, 'Successfully updated resource configuration.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Actions of environment staging' }).click();
    await page.getByRole('menuitem', { name: 'Deployment Insights' }).click();
    await page.waitForURL(/deployment-insights$/);
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Successfully updated resource configuration.' }).count(), { timeout: 1500 }).toBe(0);
    await page.getByTestId('deployment-card').first().getByText('DEPLOYED').waitFor();
    await page.screenshot({ path: 'e2e/.artifacts/insights-after-toast.png' });
    await page.goBack();
    await page.waitForURL(`**${stageUrl}`);

    // The facts take their columns from the card's width (container queries): with the side menu beside the page (1280)
    // or in a drawer (1099), no label wraps or is cut.
    for (const width of [1280, 1099]) {
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(() => crowdedFactLabels(page.getByTestId('environment-facts')), { message: `${width} px` }).toEqual([]);
      await page.screenshot({ path: `e2e/.artifacts/environment-facts-${width}.png` });
    }

    // At a phone's width the resource card keeps its name and puts its commit, status and actions under it, inside the
    // card (the name was squeezed to nothing and Configure ran past the card's edge), and the insights' card reads its
    // duration on one line (it broke as '1' over 's')
    await page.setViewportSize({ width: 390, height: 844 });
    for (const part of [netCard.getByRole('button', { name: 'Resource net', exact: true }), netCard.getByRole('button', { name: 'Configure' })])
      await expect.poll(() => fitsIn(part, netCard)).toBe(true);
    expect(await fitsIn(netCard.getByRole('button', { name: 'Actions of resource net' }), netCard)).toBe(true);
    await netCard.screenshot({ path: 'e2e/.artifacts/resource-card-390.png' });
    await page.goto(`${stageUrl}/deployment-insights`);
    const duration = page.getByTestId('deployment-card').first().getByTestId('deployment-duration');
    await duration.waitFor();
    expect(await textLines(duration)).toBe(1);
    await page.getByTestId('deployment-card').first().screenshot({ path: 'e2e/.artifacts/deployment-card-390.png' });
    await page.goto(stageUrl);
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test('the overview lists the environment with its status and the deployment on the timeline, which opens the environment', async () => {
    await page.goto('/overview');
    await page.getByRole('button', { name: 'Environment staging', exact: true }).getByText('DEPLOYED', { exact: true }).waitFor();
    await page.getByText('Deployment', { exact: true }).click(); // the timeline's filter
    const deployment = page.getByRole('button', { name: 'Timeline deployment staging', exact: true }).first();
    await deployment.getByText('DEPLOYED', { exact: true }).waitFor();
    await shot(page, 'overview');
    await deployment.click();
    await page.waitForURL(`**${stageUrl}`);
  });

  test('a CloudFormation environment is created from the strapi template with its resources in order', async () => {
    await page.goto('/environments/create?template=strapi');
    await page.getByTestId('template-inputs').waitFor();
    await page.getByRole('textbox', { name: 'Name' }).fill('cms');
    await page.getByRole('textbox', { name: 'Description' }).fill('Strapi CMS');
    await choose(page, page.getByRole('textbox', { name: 'AWS Account' }), /production/);
    await choose(page, page.getByRole('textbox', { name: 'Region' }), 'eu-west-1');
    await page.getByRole('textbox', { name: 'Image URL' }).fill('strapi/strapi:4');
    await shot(page, 'template-form');
    await page.getByRole('button', { name: 'Create Environment' }).click();
    await page.waitForURL(/\/environments\/[0-9a-f-]{36}$/);
    await expect
      .poll(() =>
        page
          .getByTestId('resource-card')
          .allInnerTexts()
          .then((t) => t.map((x) => x.split('\n')[0])),
      )
      .toEqual(['vpc', 'infrastructure', 'app']);
    await page.getByText('Cloudformation').first().waitFor();
    await shot(page, 'template-environment');
    await page.goto(stageUrl);
  });

  test('the environment is undeployed and then deleted', async () => {
    await page.getByRole('button', { name: 'Actions of environment staging' }).click();
    await page.getByRole('menuitem', { name: 'Undeploy' }).click();
    await page.getByText('This deletes all cloud resources in the environment, but not the environment itself.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Undeploy', exact: true }).click();
    await page.waitForURL(/deployment-insights$/);
    await page.getByTestId('deployment-card').first().getByText('TERMINATED').waitFor({ timeout: 60_000 });
    // the undeploy is what stands now: it is the current deployment, the deploys before it no longer
    await page.getByTestId('deployment-card').first().getByText('current', { exact: true }).waitFor();
    expect(await page.getByTestId('deployment-card').getByText('current', { exact: true }).count()).toBe(1);
    await shot(page, 'insights-after-undeploy');
    // the deploy before it, opened from its card, tells its own time: the environment's Last Deployed (N/A once
    // undeployed) stood there for every earlier deployment
    const earlier = await page.evaluate(
      async ([stageId, id]) => {
        const projectId = JSON.parse(localStorage.getItem('project')!).id;
        const res = await fetch(`/ms-engine/projects/${projectId}/stages/${stageId}/deployments/${id}`, {
          headers: { authorization: `Bearer ${localStorage.getItem('idToken')}` },
        });
        return (await res.json()) as { finishedAt: string | null };
      },
      [stageUrl.split('/').pop()!, deployedId],
    );
    await page.goto(`${stageUrl}/details?deploymentId=${deployedId}`);
    const deployedAt = page.getByTestId('details-last-deployed').locator('time');
    await deployedAt.waitFor();
    expect(await deployedAt.getAttribute('datetime')).toBe(new Date(earlier.finishedAt!).toISOString());

    await page.goto(stageUrl);
    // deleted from its own page, the environment is not asked for again (its page asked for it and its resources: two 404s)
    const askedAfter: string[] = [];
    const onAnswer = (r: Response) => {
      if (r.status() === 404 && r.url().includes(stageUrl.split('/').pop()!)) askedAfter.push(new URL(r.url()).pathname);
    };
    await page.getByRole('button', { name: 'Actions of environment staging' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    page.on('response', onAnswer);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL('**/environments');
    await expect.poll(() => page.getByTestId('environment-name').allInnerTexts()).toEqual(['cms']);
    page.off('response', onAnswer);
    expect(askedAfter).toEqual([]);
    await shot(page, 'environments-list');

    // its deployments stay on the overview's timeline, which says the environment is gone
    await page.goto('/overview');
    await page.getByText('Deployment', { exact: true }).click();
    await page.getByRole('button', { name: 'Timeline deployment staging', exact: true }).first().click();
    await page.getByText('Environment staging is no longer available', { exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/overview');
  });

  test("a Google Cloud environment's zone is chosen anew when its region changes", async () => {
    await page.goto('/environments/create');
    await choose(page, page.getByRole('textbox', { name: 'Cloud Provider' }), 'Google Cloud Platform');
    const region = page.getByRole('textbox', { name: 'Region' });
    const zone = page.getByRole('textbox', { name: 'Zone' });
    expect(await zone.isDisabled()).toBe(true);
    await choose(page, region, 'europe-west1');
    await choose(page, zone, 'europe-west1-b');
    expect(await zone.inputValue()).toBe('europe-west1-b');
    // spec §2: choosing a region clears the zone and limits the zones to it (the field kept showing europe-west1-b)
    await choose(page, region, 'us-central1');
    await expect.poll(() => zone.inputValue()).toBe('');
    await zone.click();
    expect(await page.getByRole('option').allInnerTexts()).toEqual(['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f']);
  });
});
