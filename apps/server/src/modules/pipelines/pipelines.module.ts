import path from 'node:path';
import { defineModule, job, type ApiOf } from '../../platform/module.js';
import type { BillingService } from '../billing/billing.port.js';
import type { GitAccountsService } from '../git-accounts/git-accounts.port.js';
import type { GitAccess } from './git-access.js';
import type { RegistriesPort } from '../registries/registries.port.js';
import type { ServiceDeploys } from '../builds/deploy-steps.js';
import { createPipelinesStore } from './pipelines.store.js';
import { createPipelinesService } from './pipelines.service.js';
import { pipelinesRoutes } from './pipelines.routes.js';
import { createBuildsStore, type BuildsStore } from '../builds/builds.store.js';
import { createBuildsService, BUILD_QUEUE } from '../builds/builds.service.js';
import { createBuildsJobs } from '../builds/builds.jobs.js';
import { buildsRoutes, timelineRoutes, webhookRoutes } from '../builds/builds.routes.js';
import { registerLogStreams } from '../builds/builds.realtime.js';
import { createComponentBuilds } from '../builds/component-packaging.js';
import { createLatestBuilds } from '../builds/latest-builds.js';
import { withStepStatusEvents } from '../builds/status-events.js';
import { boxLimitsPolicy } from '../../integrations/executor/box-limits.js';

const RECOVER_EVERY_MS = 10_000;

/**
 * Pipelines and their builds, one module: a pipeline lists its latest builds and a build reads its
 * pipeline. Builds tell `runFinished`, answer the timeline and gitAccountUsers; `componentBuilds` is the
 * read side components need of component builds.
 */
export const pipelinesModule = defineModule({
  name: 'pipelines',
  // registries is optional: docker-push steps need it, and say so when the app has no registries module before this one
  create(
    platform,
    needs: { billing: BillingService; gitAccounts: GitAccountsService; registries?: RegistriesPort; services?: ServiceDeploys },
    // buildsStore: the builds' store as given to the service and jobs (a test holds one of its writes); billing: the
    // billing service as the module reads it (a test counts its reads)
    overrides: {
      gitAccess?: GitAccess;
      registries?: RegistriesPort;
      services?: ServiceDeploys;
      buildsStore?: (store: BuildsStore) => BuildsStore;
      billing?: (billing: BillingService) => BillingService;
    },
  ) {
    const { config, hooks, realtime, artifacts, runWorkers, log } = platform;
    const billing = overrides.billing?.(needs.billing) ?? needs.billing;
    const git: GitAccess = overrides.gitAccess ?? needs.gitAccounts;
    const concurrency = config.GANTRY_JOB_CONCURRENCY;
    const eventful = withStepStatusEvents(createBuildsStore(platform.db), realtime);
    const buildsStore = overrides.buildsStore?.(eventful) ?? eventful;
    const cacheRoot = path.join(config.dataDir, 'build-cache');
    const pipelines = createPipelinesService({
      db: platform.db,
      store: createPipelinesStore(platform.db, platform.database.cache),
      secrets: platform.secrets,
      billing,
      git,
      baseUrl: platform.baseUrl,
      builds: createLatestBuilds({ store: buildsStore, artifacts, cacheRoot }),
    });
    // the service and its jobs call each other only once requests and jobs arrive
    const builds = createBuildsService({
      store: buildsStore,
      jobs: platform.jobs,
      realtime,
      artifacts,
      billing,
      pipelines,
      git,
      recover: () => buildJobs.recover(),
      abortLocal: (buildId) => buildJobs.cancel(buildId),
      startHere: runWorkers ? () => buildJobs.reserve() : undefined,
      spareBuildId: runWorkers ? () => buildJobs.takeSpareBox() : undefined,
    });
    const buildJobs = createBuildsJobs({
      store: buildsStore,
      builds,
      pipelines,
      git,
      realtime,
      artifacts,
      workspaceRoot: path.join(config.dataDir, 'workspaces'),
      sandbox: platform.sandbox,
      // each build's boxes under limits of their own (a worker that runs boxes looks for its cgroups once)
      boxLimits: runWorkers && platform.sandbox.mode === 'bwrap' ? boxLimitsPolicy(config, (projectId) => billing.limitations(projectId)) : undefined,
      maxDurationMs: config.GANTRY_BUILD_MAX_MINUTES * 60_000,
      buildMinutesLimit: async (projectId) => Number((await billing.limitations(projectId)).buildMinutes ?? 0),
      log,
      concurrency,
      registries: overrides.registries ?? needs.registries,
      containerScanner: config.CONTAINER_SCANNER,
      cacheRoot,
      services: overrides.services ?? needs.services,
      // deployments come after pipelines: an environment deploy step reaches them through the hook
      deployEnvironment: (req) => hooks.environmentDeploy.ask(req),
      onFinished: async (b) => {
        const pipeline = await pipelines.byIdAnyProject(b.pipelineId);
        if (pipeline) await hooks.runFinished.emit({ kind: 'build', ...b, pipelineName: pipeline.name });
      },
    });
    hooks.gitAccountUsers.provide((gitAccountId) => pipelines.namesUsingGitAccount(gitAccountId));
    hooks.timelineSources.provide((projectId, type) => builds.timeline(projectId, type));

    return {
      api: { pipelines, builds, componentBuilds: createComponentBuilds({ store: buildsStore, artifacts }) },
      routes: [
        { prefix: '/ms-ap', plugin: pipelinesRoutes({ pipelines, guards: platform.guards }) },
        { prefix: '/ms-ap', plugin: buildsRoutes({ builds, pipelines, guards: platform.guards }) },
        { prefix: '/ms-ap', plugin: webhookRoutes({ builds }) },
        {
          prefix: '/ms-elasticsearch',
          plugin: timelineRoutes({
            events: async (projectId, type) =>
              (await hooks.timelineSources.collect(projectId, type)).flat().sort((a, b) => b.timestamp.localeCompare(a.timestamp)),
            guards: platform.guards,
          }),
        },
      ],
      jobs: [job<{ buildId: string }>(BUILD_QUEUE, ({ buildId }) => buildJobs.run(buildId))],
      socket: (rt) => registerLogStreams(rt, { membership: platform.membership, builds, store: buildsStore }),
      async start() {
        if (runWorkers) await buildJobs.start(RECOVER_EVERY_MS);
      },
      stop: (withinMs) => buildJobs.stop(withinMs),
    };
  },
});
export type PipelinesApi = ApiOf<typeof pipelinesModule>;
