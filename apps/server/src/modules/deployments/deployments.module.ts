import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Validation } from '../../platform/errors.js';
import type { Db } from '../../platform/db.js';
import type { Guards, MembershipLookup } from '../../platform/auth.js';
import type { Jobs } from '../../platform/jobs.js';
import type { Realtime } from '../../platform/realtime.js';
import type { BillingService } from '../billing/billing.service.js';
import type { ComponentsService } from '../components/components.service.js';
import type { StagesService } from '../stages/stages.service.js';
import type { StageRow } from '../stages/stages.store.js';
import { createDeploymentsStore } from './deployments.store.js';
import { createDeploymentsService, DEPLOYMENT_QUEUE, PLAN_QUEUE } from './deployments.service.js';
import { createDeploymentsRunner } from './deployments.runner.js';
import { deploymentsRoutes, deploymentTimeRoutes } from './deployments.routes.js';
import { registerDeploymentLogStreams } from './deployments.realtime.js';
import { createTerraformEngine } from './terraform-engine.js';
import { createCloudFormationEngine } from './cloudformation-engine.js';
import type { DeploymentEngine } from './engine.js';
import type { Sandbox } from '../../integrations/executor/sandbox.js';
import { removeTree } from '../../integrations/executor/workspace-files.js';
import type { SecretBox } from '../../platform/secrets.js';

/** Cloud credentials of an environment's account, as environment variables for the engine. */
export type StageCredentials = (stage: StageRow) => Promise<Record<string, string>>;

/**
 * The deployments module, wired once in app.ts: service, job workers, recovery, the live log
 * stream, and routes for /ms-engine and /ms-elasticsearch.
 */
export async function createDeploymentsModule(deps: {
  db: Db; guards: Guards; jobs: Jobs; realtime: Realtime; membership: MembershipLookup; log: FastifyBaseLogger;
  billing: BillingService; stages: StagesService; components: ComponentsService; credentialsFor: StageCredentials;
  dataDir: string; terraformBin: string; databaseUrl?: string; concurrency: number; runWorkers: boolean;
  sandbox: Sandbox; secrets: SecretBox;
  /** AWS clients for CloudFormation (tests hand in SDK stubs); default: the SDK's own chain. */
  cloudFormationClients?: Parameters<typeof createCloudFormationEngine>[0]['clients'];
}) {
  const store = createDeploymentsStore(deps.db);
  const terraformRoot = path.join(deps.dataDir, 'terraform');
  const legacySchema = (stageId: string) => `tfstate_${stageId.replace(/-/g, '')}`;
  const terraform = createTerraformEngine({
    bin: deps.terraformBin, root: terraformRoot, sandbox: deps.sandbox, secrets: deps.secrets,
    states: { get: store.sealedState, put: store.putSealedState },
    // an older Gantry kept the state in terraform's pg backend: taken over once, then its schema is dropped
    legacyPgState: deps.databaseUrl ? async (stageId) => {
      const state = await store.legacyPgState(legacySchema(stageId));
      if (state !== undefined) await deps.db.execute(sql.raw(`drop schema if exists "${legacySchema(stageId)}" cascade`));
      return state;
    } : undefined,
  });
  const cloudformation = createCloudFormationEngine({ credentialsFor: deps.credentialsFor, clients: deps.cloudFormationClients });
  const engineFor = (stage: StageRow): DeploymentEngine => {
    if (stage.iacTool === 'terraform') return terraform;
    if (stage.cloudProvider !== 'aws') throw new Validation('CloudFormation environments deploy to AWS only');
    return cloudformation;
  };
  const localAborts = new Map<string, AbortController>();
  const components = {
    async resolve(projectId: string, componentId: string, version: string) {
      const [row, versions] = await Promise.all([deps.components.visibleRow(projectId, componentId), deps.components.versions(projectId, componentId)]);
      const v = version === 'latest' ? versions[0] : versions.find((x) => x.id === version);
      if (!v) throw new Validation(`The component ${row.name} has no ${version === 'latest' ? 'successful build yet' : `version ${version}`}`);
      return { versionId: v.id, version: v.version, componentName: row.name };
    },
    extract: (projectId: string, componentId: string, versionId: string, dest: string) => deps.components.extract(projectId, componentId, versionId, dest),
    outputs: async (projectId: string, componentId: string, versionId: string) =>
      (await deps.components.versionSchema(projectId, componentId, versionId)).outputs.map((o) => ({ name: o.name, sensitive: o.sensitive })),
  };
  let runner!: ReturnType<typeof createDeploymentsRunner>;
  const service = createDeploymentsService({
    store, stages: deps.stages, billing: deps.billing, jobs: deps.jobs, components, engineFor, localAborts,
    onQueued: deps.runWorkers ? (kind, id) => runner.runSoon(kind, id, deps.concurrency) : undefined,
  });
  runner = createDeploymentsRunner({
    store, stages: deps.stages, components, engineFor, credentialsFor: deps.credentialsFor, realtime: deps.realtime, localAborts,
    modulesRoot: path.join(terraformRoot, 'runs'), log: deps.log, processName: path.basename(deps.terraformBin),
  });
  service.setRecoverer(runner.recover);
  // a deleted environment leaves no terraform files, state or unpacked versions behind
  deps.stages.onRemoved(async (stageId) => {
    for (const p of [terraform.workDir(stageId), path.join(terraformRoot, 'runs', stageId), path.join(terraformRoot, 'plans', stageId), path.join(terraformRoot, 'state', `${stageId}.tfstate`), path.join(terraformRoot, 'state', `${stageId}.tfstate.backup`)]) {
      await removeTree(p);
    }
    if (deps.databaseUrl) await deps.db.execute(sql.raw(`drop schema if exists "${legacySchema(stageId)}" cascade`));
  });
  registerDeploymentLogStreams(deps.realtime, { membership: deps.membership, deployments: service, store });
  for (let i = 0; i < deps.concurrency; i++) {
    await deps.jobs.work<{ deploymentId: string }>(DEPLOYMENT_QUEUE, ({ deploymentId }) => runner.run(deploymentId));
    await deps.jobs.work<{ planId: string }>(PLAN_QUEUE, ({ planId }) => runner.runPlan(planId));
  }
  let recovery: NodeJS.Timeout | undefined;
  if (deps.runWorkers) {
    await runner.recover();
    recovery = setInterval(() => runner.recover().catch((err) => deps.log.error({ err }, 'deployment recovery failed')), 10_000);
    recovery.unref();
  }
  return {
    service, store, runner, localAborts,
    routes: deploymentsRoutes({ deployments: service, guards: deps.guards }),
    timeRoutes: deploymentTimeRoutes({ deployments: service, guards: deps.guards }),
    /** For a server stop: no more recovery sweeps, and the runs of this process end (bounded by `withinMs`). */
    stop: async (withinMs: number) => {
      if (recovery) clearInterval(recovery);
      await runner.stop(withinMs);
    },
  };
}
