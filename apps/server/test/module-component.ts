import { bearer, createStage, insertGitAccount, until, type TestApp } from './helpers.js';

/**
 * The chain a user goes through before deploying their own Terraform module: a pipeline on the repository
 * (its spec's `Module` step packages the module), a component from that step, one build of main that makes
 * the component's first version, and an AWS environment to deploy it in. Answers the ids and the build.
 */
export async function moduleComponentSetUp(
  t: TestApp,
  o: {
    idToken: string;
    projectId: string;
    repoUrl: string;
    component: { name: string; description: string };
    environment: { name: string; description: string; awsAccountId: string; awsRegion: string };
  },
) {
  const headers = bearer(o.idToken);
  const acc = await insertGitAccount(t, o.projectId);
  const pipeline = await t.app.inject({
    method: 'POST',
    url: `/ms-ap/projects/${o.projectId}/pipelines`,
    headers,
    payload: { name: 'infra-module', gitAccountId: acc.id, repositoryUrl: o.repoUrl, branchFilter: 'main', automatedTrigger: false },
  });
  if (pipeline.statusCode !== 201) throw new Error(`creating the pipeline answered ${pipeline.statusCode}: ${pipeline.body}`);
  const pipelineId = pipeline.json().pipelineId as string;
  const comp = await t.app.inject({
    method: 'POST',
    url: `/ms-engine/projects/${o.projectId}/components`,
    headers,
    payload: { ...o.component, type: 'Other', cloudProvider: 'aws', infrastructureAsCodeTool: 'terraform', pipelineId, artifactStep: 'Module' },
  });
  if (comp.statusCode !== 201) throw new Error(`creating the component answered ${comp.statusCode}: ${comp.body}`);
  const builds = `/ms-ap/projects/${o.projectId}/pipelines/${pipelineId}/builds`;
  const buildId = (await t.app.inject({ method: 'POST', url: builds, headers, payload: { ref: 'refs/heads/main' } })).json().buildId as string;
  const build = await until(
    async () => (await t.app.inject({ method: 'GET', url: `${builds}/${buildId}`, headers })).json(),
    (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
    'the build',
  );
  if (build.status !== 'SUCCEEDED') throw new Error(`the module's build ended ${build.status}: ${build.errorMessage}`);
  const stageId = await createStage(t, o.idToken, o.projectId, o.environment);
  return { pipelineId, componentId: comp.json().componentId as string, buildId, sha: build.metadata.commit.name as string, stageId };
}
