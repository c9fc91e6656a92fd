import { branchMatches, type PartialDeploy } from '@gantry/contracts';
import type { EnvironmentDeployRequest } from '../../platform/hooks.js';
import { imageTag } from '../../integrations/buildah/image-ref.js';
import type { StepContext } from './step-handlers.js';
import type { ServicesPort } from '../services/services.port.js';

/** What a Kubernetes deploy step asks of the services module. */
export type ServiceDeploys = Pick<ServicesPort, 'deployVersion'>;

export const NO_SERVICES = "The Kubernetes deploy step needs the project's services, which this Gantry server does not offer (no services module)";

/** A deploy step's config with its placeholders resolved (values and keys). */
const configOf = <T>(ctx: StepContext) => ctx.resolveValue(ctx.step.config) as T;

/** Marks the step as skipped (it still ends SUCCEEDED: the build goes on); the card and the panel say why. */
async function skip(ctx: StepContext, reason: string) {
  ctx.log(`[gantry] skipped: ${reason}`);
  await ctx.store.updateStep(ctx.build.id, ctx.step.name, { reports: { skipped: reason } });
}

export async function deployKubernetes(ctx: StepContext) {
  const cfg = configOf<{ cluster: string; namespace: string; service: string; tag?: string; branch_filter?: string }>(ctx);
  if (cfg.branch_filter !== undefined && !branchMatches(cfg.branch_filter, ctx.build.branch))
    return skip(ctx, `the branch ${ctx.build.branch} does not match the step's branch filter ${cfg.branch_filter}`);
  if (!ctx.services) throw new Error(NO_SERVICES);
  const tag = imageTag(cfg.tag, ctx.build.commitSha);
  ctx.log(`[gantry] deploying ${cfg.service}:${tag} to the namespace ${cfg.namespace} of the cluster ${cfg.cluster}`);
  const { historyId } = await ctx.services.deployVersion({
    projectId: ctx.build.projectId,
    clusterId: cfg.cluster,
    namespace: cfg.namespace,
    serviceName: cfg.service,
    tag,
    initiator: { pipelineId: ctx.pipeline.id, buildId: ctx.build.id },
    commit: ctx.build.commitSha,
    log: ctx.log,
  });
  await ctx.store.updateStep(ctx.build.id, ctx.step.name, { reports: { serviceDeploy: { service: cfg.service, namespace: cfg.namespace, tag, historyId } } });
}

export async function deployEnvironment(ctx: StepContext) {
  const cfg = configOf<{ env_id: string; partial?: PartialDeploy }>(ctx);
  const partial = typeof cfg.partial === 'object' ? cfg.partial : {};
  const overrides = Object.fromEntries(Object.entries(partial.resource_version_overrides ?? {}).map(([k, v]) => [k, String(v)]));
  const request: EnvironmentDeployRequest = {
    projectId: ctx.build.projectId,
    environment: cfg.env_id,
    resourceVersions: overrides,
    createMissingResources: partial.create_missing_resources === true,
    initiator: { pipelineId: ctx.pipeline.id, buildId: ctx.build.id },
    log: ctx.log,
    signal: ctx.signal,
  };
  for (const [name, version] of Object.entries(overrides)) ctx.log(`[gantry] resource ${name}: version ${version}`);
  const done = await ctx.deployEnvironment(request);
  await ctx.store.updateStep(ctx.build.id, ctx.step.name, { reports: { environmentDeploy: done } });
  if (!done.succeeded) throw new Error(`The deployment of the environment ended ${done.status}${done.error ? `: ${done.error}` : ''}`);
}
