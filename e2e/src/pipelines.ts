import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import type { GitStandin } from '@gantry/test-support/git-standin/index';
import type { Stack } from './harness.js';
import { choose } from './ui.js';

type Api = Pick<Stack, 'api'>;

/**
 * Connects the git stand-in's GitHub account to a project through the API and makes a pipeline on
 * main of its first repository, triggered by hand; answers the pipeline's id.
 */
export async function manualPipeline(stack: Api, git: Pick<GitStandin, 'issueCode'>, idToken: string, projectId: string, name: string): Promise<string> {
  const p = `/ms-ap/projects/${projectId}`;
  const { gitAccountId } = await stack.api('POST', `${p}/git-accounts`, { code: git.issueCode('github'), type: 'github' }, idToken);
  const repo = (await stack.api('GET', `${p}/git-accounts/${gitAccountId}/repositories`, undefined, idToken)).repositories[0];
  const { pipelineId } = await stack.api(
    'POST',
    `${p}/pipelines`,
    { name, gitAccountId, repositoryUrl: repo.url, branchFilter: 'main', automatedTrigger: false },
    idToken,
  );
  return pipelineId;
}

/** Triggers a build of main through the API; answers its id. */
export async function triggerBuild(stack: Api, idToken: string, projectId: string, pipelineId: string): Promise<string> {
  const { buildId } = await stack.api('POST', `/ms-ap/projects/${projectId}/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' }, idToken);
  return buildId;
}

/** A manual pipeline (manualPipeline) whose first build of main has SUCCEEDED. */
export async function builtPipeline(stack: Api, git: Pick<GitStandin, 'issueCode'>, idToken: string, projectId: string, name: string) {
  const pipelineId = await manualPipeline(stack, git, idToken, projectId, name);
  const buildId = await triggerBuild(stack, idToken, projectId, pipelineId);
  await expect
    .poll(async () => (await stack.api('GET', `/ms-ap/projects/${projectId}/pipelines/${pipelineId}/builds/${buildId}`, undefined, idToken)).status, {
      timeout: 60_000,
    })
    .toBe('SUCCEEDED');
  return { pipelineId, buildId };
}

/** From the pipelines list, as a user does: Create Pipeline on `repository` of the connected git account `gitLogin`, built from main; answers the new pipeline's id once its page opens. */
export async function createPipelineInUi(page: Page, o: { name: string; gitLogin: string; repository: string }): Promise<string> {
  await page.goto('/pipelines');
  await page
    .getByRole('link', { name: 'Create Pipeline' })
    .or(page.getByRole('button', { name: 'Create Pipeline' }))
    .first()
    .click();
  await page.waitForURL('**/pipelines/create');
  await page.getByRole('textbox', { name: 'Pipeline name' }).fill(o.name);
  await choose(page, page.getByLabel('Git account').first(), o.gitLogin);
  await choose(page, page.getByLabel('Git repository').first(), o.repository);
  await page.getByRole('textbox', { name: 'Branch filter' }).fill('main');
  await page.getByRole('button', { name: 'Create Pipeline', exact: true }).click();
  await page.waitForURL(/\/pipelines\/[0-9a-f-]{36}\/details/);
  return page.url().match(/pipelines\/([0-9a-f-]{36})/)![1]!;
}
