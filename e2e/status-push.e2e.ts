/**
 * Statuses never lag their logs (issue 13), in headless Chromium: with the page's polls made very
 * slow (the `gantry:poll-scale` knob), a build step's card turns running while its log streams and
 * SUCCEEDED once it ends, and the build with it — what the page shows can only have come over the socket.
 * The steps wait on gates this test opens, so nothing depends on timing. With them, two newcomer
 * fixes of the same issue: a failed-login toast does not outlive the next successful login, and the
 * insights page of a missing environment offers no deployment.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startGitStandin } from '@gantry/test-support/git-standin/index';
import { logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';
import { manualPipeline, triggerBuild } from './src/pipelines.js';

/** A gate per name: answers 503 until the test opens it, then 200 (the steps curl it in a loop). */
const opened = new Set<string>();
const gates = http.createServer((req, res) => {
  res.statusCode = opened.has(req.url ?? '') ? 200 : 503;
  res.end();
});
await new Promise<void>((resolve) => gates.listen(0, '127.0.0.1', resolve));
const gate = (name: string) => `http://127.0.0.1:${(gates.address() as AddressInfo).port}/${name}`;
const open = (name: string) => void opened.add(`/${name}`);

const standin = await startGitStandin({ providers: ['github'] });
await standin.createRepo('acme/live', {
  'gantry.yaml': `steps:
  Prepare:
    commands:
      - until curl -sf ${gate('prepare')}; do sleep 0.2; done
  Stream:
    commands:
      - echo "streaming line one"
      - until curl -sf ${gate('stream')}; do sleep 0.2; done
      - echo "streaming line two"
`,
});
afterAll(async () => {
  await standin.close();
  await new Promise((resolve) => gates.close(resolve));
});

const USER = { email: 'stella.status@example.com', password: 'Status123', firstName: 'Stella', lastName: 'Status' };

describe('statuses pushed over the socket', () => {
  // the gates are on the host's loopback, which a box reaches only on the ports the admin lists
  const stack = useStack({
    env: { ...standin.env, GANTRY_BOX_LOOPBACK_PORTS: String((gates.address() as AddressInfo).port) },
    expectedConsoleErrors: [
      // the failed login the test makes on purpose: 401 with the spec's message
      { match: /status of 401 .*\(\/ms-usermanagement\/auth\/login\)$/, why: 'a wrong password is refused' },
      // the insights page of an environment that is not there learns so from the environment's own 404
      { match: /status of 404 .*\(\/ms-engine\/projects\/[^/]+\/stages\/00000000-0000-4000-8000-000000000000\)$/, why: 'a missing environment' },
    ],
  });
  let page: Page;

  test("a step's card turns running while its log streams, and SUCCEEDED at once, with the polls out of the way", async () => {
    const idToken = await verifiedUser(stack, USER);
    const { id: projectId } = await stack.api('POST', '/ms-project/projects', { name: 'Live', description: 'Live statuses' }, idToken);
    const p = `/ms-ap/projects/${projectId}`;
    const pipelineId = await manualPipeline(stack, standin, idToken, projectId, 'live-ci');

    page = await stack.newPage({ keep: true });
    // every poll of the page a thousand times slower: 5 s becomes over an hour
    await page.addInitScript(() => window.localStorage.setItem('gantry:poll-scale', '1000'));
    await logInAndOpenProject(page, USER.email, USER.password, 'Live');

    const buildId = await triggerBuild(stack, idToken, projectId, pipelineId);
    await expect
      .poll(async () => (await stack.api('GET', `${p}/pipelines/${pipelineId}/builds/${buildId}`, undefined, idToken)).steps[0]?.status, { timeout: 60_000 })
      .toBe('RUNNING');
    await page.goto(`/pipelines/${pipelineId}/builds/${buildId}?step=Stream`);
    const card = (name: string) => page.locator(`[data-step="${name}"]`);
    const logs = page.getByTestId('step-logs');
    await card('Prepare').getByLabel('Running', { exact: true }).waitFor();
    await card('Stream').getByLabel('Pending', { exact: true }).waitFor();

    open('prepare');
    await expect.poll(() => logs.textContent(), { timeout: 60_000 }).toContain('streaming line one');
    // the step still waits on its gate: its log streams, and its card says running
    await card('Stream').getByLabel('Running', { exact: true }).waitFor({ timeout: 10_000 });
    await card('Prepare').getByLabel('Succeeded', { exact: true }).waitFor({ timeout: 10_000 });
    expect(await logs.textContent()).not.toContain('streaming line two');

    open('stream');
    await expect.poll(() => logs.textContent(), { timeout: 60_000 }).toContain('streaming line two');
    await card('Stream').getByLabel('Succeeded', { exact: true }).waitFor({ timeout: 10_000 });
    await page.getByTestId('build-status').getByText('SUCCEEDED', { exact: true }).first().waitFor({ timeout: 10_000 });
  });

  test('a failed-login toast does not survive the next successful login', async () => {
    const fresh = await stack.newPage();
    await fresh.goto('/login');
    await fresh.getByLabel('Username').fill(USER.email);
    await fresh.getByLabel('Password', { exact: true }).fill('Wrong-password1');
    await fresh.getByRole('button', { name: 'Log In', exact: true }).click();
    const refusal = fresh.getByRole('alert').filter({ hasText: 'Incorrect username or password.' });
    await refusal.waitFor();
    await fresh.getByLabel('Password', { exact: true }).fill(USER.password);
    await fresh.getByRole('button', { name: 'Log In', exact: true }).click();
    await fresh.waitForURL('**/projects');
    // the refusal would stay 8 s by itself: gone at once means the login closed it
    await expect.poll(() => refusal.count(), { timeout: 2_000 }).toBe(0);
  });

  test("a missing environment's insights page says so and offers no deployment", async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const asked: string[] = [];
    page.on('request', (r) => void (r.url().includes(`/stages/${missing}`) && asked.push(new URL(r.url()).pathname)));
    await page.goto(`/environments/${missing}/deployment-insights`);
    await page.getByText('Environment not available', { exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    // the environment is asked for, and not its deployments: they would answer 404 too, logged by the browser
    expect(asked.map((a) => a.replace(/^.*\/stages\//, ''))).toEqual([missing]);
    await page.getByRole('link', { name: 'Back to Environments', exact: true }).waitFor();
    expect(await page.getByText('Create new Deployment').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'View Environment', exact: true }).count()).toBe(0);
  });
});
