import type { Page } from 'playwright-core';
import type { GitStandin } from '@gantry/test-support/git-standin/index';
import { choose } from './ui.js';

/**
 * acme/network on the git stand-in: a Terraform module (one `terraform_data` named by its `name` input) with one
 * output, its schema and README, packaged by the spec's `Module` step (terraform-build of infra/).
 */
export async function createNetworkModuleRepo(git: Pick<GitStandin, 'createRepo'>, output: { name: string; value: string; description: string }) {
  await git.createRepo('acme/network', {
    'gantry.yaml': 'steps:\n  Clone:\n    type: git-clone\n  Module:\n    type: terraform-build\n    terraform_dir: infra\n',
    'infra/main.tf': `variable "name" {\n  type = string\n}\nresource "terraform_data" "net" {\n  input = var.name\n}\noutput "${output.name}" {\n  value = ${output.value}\n}\n`,
    'infra/schema.json': JSON.stringify({
      properties: {
        inputs: { properties: { name: { type: 'string', description: 'Network name' } }, required: ['name'] },
        outputs: { properties: { [output.name]: { type: 'string', description: output.description } } },
      },
    }),
    'infra/README.md': '# Network\nA private network for the services.\n',
  });
}

/** On the Create Component form: the `network` component from the network-module pipeline's Module step; waits for its page. */
export async function createNetworkComponent(page: Page) {
  await page.getByRole('textbox', { name: 'Component name' }).fill('network');
  await choose(page, page.getByLabel('Component type').first(), 'VPC');
  await page.getByRole('textbox', { name: 'Description' }).fill('A private network for the services');
  await choose(page, page.getByLabel('Cloud provider').first(), 'Amazon Web Services');
  await choose(page, page.getByLabel('Pipeline').first(), 'network-module');
  await choose(page, page.getByLabel('Artifact step').first(), 'Module');
  await page.getByRole('button', { name: 'Create Component' }).click();
  await page.waitForURL(/\/components\/[0-9a-f-]{36}$/);
}
