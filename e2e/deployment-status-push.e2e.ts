/**
 * Deployment statuses never lag their logs (issue 13), in headless Chromium against the real terraform
 * CLI: with the pages' polls made very slow (the `gantry:poll-scale` knob), a Quick Deploy of a
 * `terraform_data` component shows DEPLOYING on the deployment page while its log streams and DEPLOYED
 * once it ends, and an environments list opened in another browser follows it — what the pages show
 * can only have come over the socket. The resource's provisioner waits on a gate this test opens, so
 * nothing depends on timing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { startGitStandin } from '@gantry/test-support/git-standin/index';
import { connectAwsAccount, useAwsStandin } from './src/aws-standin.js';
import { logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';
import { builtPipeline } from './src/pipelines.js';

/** Answers 503 until the test opens it, then 200 (the provisioner curls it in a loop). */
let gateOpen = false;
const gate = http.createServer((_req, res) => {
  res.statusCode = gateOpen ? 200 : 503;
  res.end();
});
await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
const gateUrl = `http://127.0.0.1:${(gate.address() as AddressInfo).port}/deploy`;

await useAwsStandin();
const git = await startGitStandin({ providers: ['github'] });
await git.createRepo('acme/gated', {
  'gantry.yaml': 'steps:\n  Clone:\n    type: git-clone\n  Module:\n    type: terraform-build\n    terraform_dir: infra\n',
  'infra/main.tf': `variable "name" {
  type = string
}
resource "terraform_data" "gated" {
  input = var.name
  provisioner "local-exec" {
    command = "echo waiting for the gate; until curl -sf ${gateUrl}; do sleep 0.2; done; echo gate opened"
  }
}
output "name" {
  value = var.name
}
`,
  'infra/schema.json': JSON.stringify({
    properties: {
      inputs: { properties: { name: { type: 'string', description: 'A name' } }, required: ['name'] },
      outputs: { properties: { name: { type: 'string', description: 'The name' } } },
    },
  }),
});
afterAll(async () => {
  await git.close();
  await new Promise((resolve) => gate.close(resolve));
});

const USER = { email: 'dana.deploy@example.com', password: 'Deploy1234', firstName: 'Dana', lastName: 'Deploy' };
/** Every poll of a page a thousand times slower: 5 s becomes over an hour. */
const slowPolls = (page: Page) => page.addInitScript(() => window.localStorage.setItem('gantry:poll-scale', '1000'));

describe('deployment statuses pushed over the socket', () => {
  // the gate is on the host's loopback, which a box reaches only on the ports the admin lists
  const stack = useStack({ env: { ...git.env, GANTRY_BOX_LOOPBACK_PORTS: String((gate.address() as AddressInfo).port) }, expectedConsoleErrors: [] });

  test('a Quick Deploy shows DEPLOYING while its log streams and DEPLOYED at once, on its page and in the environments list', async () => {
    const idToken = await verifiedUser(stack, USER);
    const { id: projectId } = await stack.api('POST', '/ms-project/projects', { name: 'Gated', description: 'Gated deployments' }, idToken);
    await connectAwsAccount(stack, idToken, projectId, 'ext-9');
    const { pipelineId } = await builtPipeline(stack, git, idToken, projectId, 'gated-module');
    const e = `/ms-engine/projects/${projectId}`;
    const { componentId } = await stack.api(
      'POST',
      `${e}/components`,
      { name: 'gated', type: 'Other', description: 'Waits on a gate', cloudProvider: 'aws', pipelineId, artifactStep: 'Module' },
      idToken,
    );
    const { stageId } = await stack.api(
      'POST',
      `${e}/stages`,
      {
        name: 'gated',
        description: 'Deploys through a gate',
        cloudProvider: 'aws',
        infrastructureAsCodeTool: 'terraform',
        awsAccountId: '123456789012',
        awsRegion: 'eu-central-1',
      },
      idToken,
    );
    await stack.api('POST', `${e}/stages/${stageId}/resources`, { name: 'gated', componentId, configurations: [{ key: 'name', value: 'demo' }] }, idToken);

    // another browser follows the environments list
    const list = await stack.newPage();
    await slowPolls(list);
    await logInAndOpenProject(list, USER.email, USER.password, 'Gated');
    await list.goto('/environments');
    const card = list.getByTestId('environment-card').filter({ hasText: 'gated' });
    await card.getByText('NOT DEPLOYED', { exact: true }).waitFor();

    const page = await stack.newPage();
    await slowPolls(page);
    await logInAndOpenProject(page, USER.email, USER.password, 'Gated');
    await page.goto(`/environments/${stageId}`);
    await page.getByRole('button', { name: 'Quick Deploy', exact: true }).click();
    await page.waitForURL(/\/environments\/[0-9a-f-]{36}\/(details|deployment-insights)/);
    if (!page.url().includes('/details')) await page.goto(`/environments/${stageId}/details`);

    // the provisioner waits on the gate: the log streams, and the deployment shows running
    await expect.poll(() => page.getByTestId('terraform-log').textContent(), { timeout: 90_000 }).toContain('waiting for the gate');
    const status = page.getByTestId('details-status');
    await status.getByText('DEPLOYING', { exact: true }).waitFor({ timeout: 10_000 });
    await card.getByText('DEPLOYING', { exact: true }).waitFor({ timeout: 10_000 });

    gateOpen = true;
    await expect.poll(() => page.getByTestId('terraform-log').textContent(), { timeout: 60_000 }).toContain('Apply complete!');
    await status.getByText('DEPLOYED', { exact: true }).waitFor({ timeout: 60_000 });
    await card.getByText('DEPLOYED', { exact: true }).waitFor({ timeout: 20_000 });
    expect(await page.getByRole('button', { name: 'Cancel', exact: true }).count()).toBe(0);
  });
});
