import { expect } from 'vitest';
import type { GitStandin } from '@gantry/test-support/git-standin/index';
import type { Stack } from './harness.js';

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
