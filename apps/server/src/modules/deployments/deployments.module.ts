import path from 'node:path';
import { Validation } from '../../platform/errors.js';
import { defineModule, job } from '../../platform/module.js';
import type { BillingService } from '../billing/billing.port.js';
import type { ComponentsService } from '../components/components.port.js';
import type { StagesApi, StageRow } from '../stages/stages.port.js';
import { createDeploymentsStore } from './deployments.store.js';
import { createDeploymentsService, DEPLOYMENT_QUEUE, PLAN_QUEUE } from './deployments.service.js';
import { createDeploymentsJobs } from './deployments.jobs.js';
import { createStatusWrites } from './status-events.js';
import { deploymentsRoutes, deploymentTimeRoutes } from './deployments.routes.js';
import { registerDeploymentLogStreams } from './deployments.realtime.js';
import { createPipelineDeploy } from './pipeline-deploy.js';
import { createTerraformEngine } from './terraform-engine.js';
import type { createCloudFormationEngine } from './cloudformation-engine.js';
import type { DeploymentEngine } from './engine.js';
import { deferredMethods } from '../../platform/lazy.js';

type CloudFormationEngine = Required<Pick<DeploymentEngine, 'deploy' | 'undeploy' | 'deployedResources' | 'outputs' | 'events' | 'continueRollback'>>;
import { removeTree } from '../../integrations/executor/workspace-files.js';
import { startLauncher } from '../../integrations/executor/launcher.js';
import { boxLimitsPolicy } from '../../integrations/executor/box-limits.js';
import type { CloudAccountsService } from '../cloud-accounts/cloud-accounts.port.js';

/** Cloud credentials of an environment's account, as environment variables for the engine. */
export type StageCredentials = (stage: StageRow) => Promise<Record<string, string>>;

const RECOVER_EVERY_MS = 10_000;

/**
 * Deployments and plans of environments: the service, job workers, recovery, the live log stream, and
 * routes for /ms-engine and /ms-elasticsearch. Cleans up after a deleted environment (stageRemoved).
 */
export const deploymentsModule = defineModule({
  name: 'deployments',
  create(
    platform,
    needs: { billing: BillingService; stages: StagesApi; components: ComponentsService; cloudAccounts: CloudAccountsService },
    overrides: {
      /** Cloud credentials for runs (tests hand in fixed ones instead of assuming roles). */
      credentialsFor?: StageCredentials;
      /** AWS clients for CloudFormation (tests hand in SDK stubs); default: the SDK's own chain. */
      cloudFormationClients?: Parameters<typeof createCloudFormationEngine>[0]['clients'];
    },
  ) {
    const { config, db, log, runWorkers } = platform;
    const databaseUrl = config.DATABASE_URL;
    const concurrency = config.GANTRY_JOB_CONCURRENCY;
    const { cloudAccounts } = needs;
    const credentialsFor: StageCredentials =
      overrides.credentialsFor ??
      (async (stage) => {
        if (stage.cloudProvider === 'azurerm')
          return cloudAccounts.credentialsFor(stage.projectId, 'azurerm', { tenantId: stage.tenantId!, subscriptionId: stage.subscriptionId! });
        if (stage.cloudProvider === 'google') return cloudAccounts.credentialsFor(stage.projectId, 'google', stage.gcpProjectId!);
        return cloudAccounts.credentialsFor(stage.projectId, 'aws', stage.awsAccountId!);
      });
    const store = createDeploymentsStore(db);
    const statuses = createStatusWrites({ transaction: (fn) => db.transaction((tx) => fn(tx)), store, stages: needs.stages, realtime: platform.realtime });
    const terraformRoot = path.join(config.dataDir, 'terraform');
    const legacySchema = (stageId: string) => `tfstate_${stageId.replace(/-/g, '')}`;
    const terraform = createTerraformEngine({
      bin: config.TERRAFORM_BIN,
      root: terraformRoot,
      sandbox: platform.sandbox,
      secrets: platform.secrets,
      states: { get: store.sealedState, put: store.putSealedState },
      // an older Gantry kept the state in terraform's pg backend: taken over once, then its schema is dropped
      legacyPgState: databaseUrl
        ? async (stageId) => {
            const state = await store.legacyPgState(legacySchema(stageId));
            if (state !== undefined) await store.dropLegacyPgState(legacySchema(stageId));
            return state;
          }
        : undefined,
      // each run's boxes under the builds' limits (terraform runs the modules' code), where this process runs them
      boxLimits: runWorkers && platform.sandbox.mode === 'bwrap' ? boxLimitsPolicy(config, (projectId) => needs.billing.limitations(projectId)) : undefined,
    });
    // the AWS SDK behind CloudFormation is loaded with the first call for a CloudFormation environment, not at start-up (issue 14)
    const cloudformation = deferredMethods<CloudFormationEngine>(
      { deploy: true, undeploy: true, deployedResources: true, outputs: true, events: true, continueRollback: true },
      async () =>
        (await import('./cloudformation-engine.js')).createCloudFormationEngine({
          credentialsFor,
          clients: overrides.cloudFormationClients,
        }) as CloudFormationEngine,
    );
    const engineFor = (stage: StageRow): DeploymentEngine => {
      if (stage.iacTool === 'terraform') return terraform;
      if (stage.cloudProvider !== 'aws') throw new Validation('CloudFormation environments deploy to AWS only');
      return cloudformation;
    };
    const components = {
      async resolve(projectId: string, componentId: string, version: string) {
        const { row, versions } = await needs.components.withVersions(projectId, componentId);
        const v = version === 'latest' ? versions[0] : versions.find((x) => x.id === version);
        if (!v) throw new Validation(`The component ${row.name} has no ${version === 'latest' ? 'successful build yet' : `version ${version}`}`);
        return { versionId: v.id, version: v.version, componentName: row.name };
      },
      extract: (projectId: string, componentId: string, versionId: string, dest: string) => needs.components.extract(projectId, componentId, versionId, dest),
      outputs: async (projectId: string, componentId: string, versionId: string) =>
        (await needs.components.versionSchema(projectId, componentId, versionId)).outputs.map((o) => ({ name: o.name, sensitive: o.sensitive })),
    };
    // the service and its jobs call each other only once requests and jobs arrive
    const service = createDeploymentsService({
      store,
      statuses,
      stages: needs.stages,
      billing: needs.billing,
      jobs: platform.jobs,
      components,
      engineFor,
      recover: () => runs.recover(),
      abortLocal: (id) => runs.cancel(id),
      startHere: runWorkers ? (stage) => runs.startHere(stage) : undefined,
      onPlanQueued: runWorkers ? (planId) => runs.runPlanSoon(planId) : undefined,
    });
    const runs = createDeploymentsJobs({
      store,
      statuses,
      stages: needs.stages,
      components,
      engineFor,
      credentialsFor,
      realtime: platform.realtime,
      concurrency,
      modulesRoot: path.join(terraformRoot, 'runs'),
      log,
      processName: path.basename(config.TERRAFORM_BIN),
      onFinished: ({ row, stage, status, succeeded }) =>
        platform.hooks.runFinished.emit({
          kind: 'deployment',
          projectId: stage.projectId,
          stageId: stage.id,
          stageName: stage.name,
          deploymentKind: row.kind,
          resourceName: row.resourceName,
          succeeded,
          status,
          triggeredBy: row.startedBy,
        }),
    });
    platform.hooks.timelineSources.provide((projectId, type) => service.timeline(projectId, type));
    // a pipeline's deploy step (target: environment) deploys through this module
    platform.hooks.environmentDeploy.answer(createPipelineDeploy({ deployments: service, stages: needs.stages, components: needs.components }));
    // a deleted environment leaves no terraform files, state or unpacked versions behind
    platform.hooks.stageRemoving.on((stage) => service.keepTimelineOfRemovedStage(stage));
    platform.hooks.stageRemoved.on(async ({ stageId }) => {
      terraform.closeSpareBoxes(stageId);
      for (const p of [
        terraform.workDir(stageId),
        path.join(terraformRoot, 'runs', stageId),
        path.join(terraformRoot, 'plans', stageId),
        path.join(terraformRoot, 'state', `${stageId}.tfstate`),
        path.join(terraformRoot, 'state', `${stageId}.tfstate.backup`),
      ]) {
        await removeTree(p);
      }
      if (databaseUrl) await store.dropLegacyPgState(legacySchema(stageId));
    });

    return {
      api: service,
      routes: [
        { prefix: '/ms-engine', plugin: deploymentsRoutes({ deployments: service, guards: platform.guards }) },
        { prefix: '/ms-elasticsearch', plugin: deploymentTimeRoutes({ deployments: service, guards: platform.guards }) },
      ],
      jobs: [
        job<{ deploymentId: string }>(DEPLOYMENT_QUEUE, ({ deploymentId }) => runs.run(deploymentId)),
        job<{ planId: string }>(PLAN_QUEUE, ({ planId }) => runs.runPlan(planId)),
      ],
      socket: (realtime) => registerDeploymentLogStreams(realtime, { membership: platform.membership, deployments: service, store }),
      async start() {
        if (!runWorkers) return;
        startLauncher(); // terraform is spawned through it (a fork of the server itself costs ~0.1 s)
        await runs.start(RECOVER_EVERY_MS);
        // the groups of boxes a crash left (after the recovery: a run still going on keeps its environment's)
        await terraform.sweepGroups(store.busyStages).catch((err) => log.error({ err }, 'could not sweep the groups of deployment boxes'));
      },
      /** For a server stop: no more recovery sweeps, and the runs of this process end (bounded by `withinMs`). */
      async stop(withinMs) {
        await runs.stop(withinMs);
        terraform.closeSpareBoxes();
        await terraform.stopLimits();
      },
    };
  },
});
