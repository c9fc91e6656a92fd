import type { EnvironmentDeployRequest, EnvironmentDeployResult } from '../../platform/hooks.js';
import { NotFound, Validation } from '../../platform/errors.js';
import type { ComponentsService } from '../components/components.port.js';
import type { StagesApi } from '../stages/stages.port.js';
import type { DeploymentsService } from './deployments.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How often a pipeline's deploy step looks at its deployment (its log and whether it ended). */
const FOLLOW_EVERY_MS = 1000;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * A pipeline's `deploy` step with `target: environment` (the environmentDeploy hook): sets the named
 * resources to the given versions (creating the missing ones from the pipeline's component when
 * asked), deploys the environment as Quick Deploy does, and follows the deployment to its end, its
 * log lines handed to the step.
 */
export function createPipelineDeploy(deps: { deployments: DeploymentsService; stages: StagesApi; components: ComponentsService }) {
  const { deployments, stages, components } = deps;

  async function environmentOf(projectId: string, idOrName: string) {
    const list = await stages.list(projectId);
    const stage = list.find((s) => (UUID.test(idOrName) && s.id === idOrName) || s.name === idOrName);
    if (!stage) throw new NotFound(`There is no environment ${idOrName} in this project`);
    return stage;
  }

  /** The component of the initiating pipeline that has this version (a build of it). */
  async function componentWithVersion(projectId: string, pipelineId: string, version: string) {
    for (const c of (await components.list(projectId)).filter((x) => x.pipelineId === pipelineId)) {
      if ((await components.versions(projectId, c.id)).some((v) => v.id === version)) return c.id;
    }
    throw new Validation(`No component of this pipeline has the version ${version}`);
  }

  async function setVersions(req: EnvironmentDeployRequest, stageId: string) {
    const resources = await stages.resources(req.projectId, stageId);
    for (const [name, version] of Object.entries(req.resourceVersions)) {
      const r = resources.find((x) => x.name === name);
      if (r) {
        await stages.updateResource(req.projectId, stageId, name, {
          name,
          componentId: r.component.id,
          componentVersion: version,
          configurations: r.configurations,
        });
        req.log(`[gantry] ${name} set to version ${version}`);
      } else if (req.createMissingResources) {
        const componentId = await componentWithVersion(req.projectId, req.initiator.pipelineId, version);
        await stages.addResource(req.projectId, stageId, { name, componentId, componentVersion: version, configurations: [] });
        req.log(`[gantry] ${name} created at version ${version}`);
      } else {
        throw new Validation(`The environment has no resource ${name} (create_missing_resources is not set)`);
      }
    }
  }

  return async function deployEnvironment(req: EnvironmentDeployRequest): Promise<EnvironmentDeployResult> {
    const stage = await environmentOf(req.projectId, req.environment);
    await setVersions(req, stage.id);
    const { deploymentId } = await deployments.deploy(req.projectId, stage.id, null);
    req.log(`[gantry] deploying the environment ${stage.name} (deployment ${deploymentId})`);
    let seq = -1;
    const followLog = async () => {
      for (const c of (await deployments.logs(req.projectId, stage.id, deploymentId)).chunks) {
        if (c.seq <= seq) continue;
        seq = c.seq;
        for (const line of c.text.replace(/\n$/, '').split('\n')) req.log(line);
      }
    };
    for (;;) {
      const d = await deployments.one(req.projectId, stage.id, deploymentId);
      await followLog();
      if (d.finishedAt) {
        const succeeded = !d.error && /_COMPLETE$/.test(d.status) && !/^DELETE_|ROLLBACK/.test(d.status);
        return { deploymentId, environment: stage.name, status: d.status, error: d.error, succeeded };
      }
      if (req.signal.aborted) {
        await deployments.cancel(req.projectId, stage.id).catch(() => undefined);
        throw req.signal.reason instanceof Error ? req.signal.reason : new Error('Stopped');
      }
      await pause(FOLLOW_EVERY_MS, req.signal);
    }
  };
}
