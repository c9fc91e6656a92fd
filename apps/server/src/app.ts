import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import type { Config } from './config.js';
import { openDatabase, type Database } from './platform/db.js';
import { registerErrorHandler } from './platform/errors.js';
import { loadMasterKey, deriveKey, createSecretBox, type SecretBox } from './platform/secrets.js';
import { createIdTokens } from './platform/tokens.js';
import { createGuards, type Guards } from './platform/auth.js';
import { startJobs, type Jobs } from './platform/jobs.js';
import { createMailer, type Mailer } from './platform/mail.js';
import { createRealtime, type Realtime } from './platform/realtime.js';
import { createHooks } from './platform/hooks.js';
import { createUsersStore } from './modules/users/users.store.js';
import { createUsersService, type UsersService } from './modules/users/users.service.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { createBillingStore } from './modules/billing/billing.store.js';
import { createBillingService, type BillingService } from './modules/billing/billing.service.js';
import { billingRoutes, promoSignUpRoutes } from './modules/billing/billing.routes.js';
import { createProjectsStore } from './modules/projects/projects.store.js';
import { createProjectsService, type ProjectsService } from './modules/projects/projects.service.js';
import { projectsRoutes, projectUsersLookupRoutes } from './modules/projects/projects.routes.js';
import { createGithubIdentity } from './integrations/github/github-identity.js';
import { createArtifactStore } from './platform/artifacts.js';
import { createSandbox } from './integrations/executor/sandbox.js';
import type { GitAccess } from './modules/pipelines/git-access.js';
import { createPipelinesStore } from './modules/pipelines/pipelines.store.js';
import { createPipelinesService, type PipelinesService } from './modules/pipelines/pipelines.service.js';
import { pipelinesRoutes } from './modules/pipelines/pipelines.routes.js';
import { createBuildsStore } from './modules/builds/builds.store.js';
import { createBuildsService, BUILD_QUEUE, type BuildsService } from './modules/builds/builds.service.js';
import { createBuildRunner } from './modules/builds/build-runner.js';
import { buildsRoutes, timelineRoutes, webhookRoutes } from './modules/builds/builds.routes.js';
import { registerLogStreams } from './modules/builds/builds.realtime.js';
import { createGitAccountsModule } from './modules/git-accounts/git-accounts.module.js';
import { createNotificationsStore } from './modules/notifications/notifications.store.js';
import { createNotificationsService, type NotificationsService } from './modules/notifications/notifications.service.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { createComponentsModule } from './modules/components/components.module.js';
import { createCloudAccountsModule } from './modules/cloud-accounts/cloud-accounts.module.js';
import type { CloudAccountsService } from './modules/cloud-accounts/cloud-accounts.service.js';
import type { CloudVerifier } from './integrations/cloud-verify/index.js';
import { createStagesStore } from './modules/stages/stages.store.js';
import { createStagesService, type StagesService } from './modules/stages/stages.service.js';
import { stagesRoutes } from './modules/stages/stages.routes.js';
import type { ComponentsService } from './modules/components/components.service.js';
import type { GitAccountsService } from './modules/git-accounts/git-accounts.service.js';
import { createDeploymentsModule, type StageCredentials } from './modules/deployments/deployments.module.js';
import type { DeploymentsService } from './modules/deployments/deployments.service.js';
import { changeTaggedState } from './integrations/aws-resources/index.js';
import { createSchedulesStore } from './modules/schedules/schedules.store.js';
import { createSchedulesService } from './modules/schedules/schedules.service.js';
import { schedulesRoutes } from './modules/schedules/schedules.routes.js';
import { runShutdownSteps, STOP_RUNS_WITHIN_MS } from './platform/shutdown.js';

export interface Services {
  database: Database;
  jobs: Jobs;
  mailer: Mailer;
  secrets: SecretBox;
  guards: Guards;
  realtime: Realtime;
  users: UsersService;
  projects: ProjectsService;
  billing: BillingService;
  gitAccounts: GitAccountsService;
  pipelines: PipelinesService;
  builds: BuildsService;
  notifications: NotificationsService;
  components: ComponentsService;
  cloudAccounts: CloudAccountsService;
  stages: StagesService;
  deployments: DeploymentsService;
  outboxKey: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/**
 * Builds the whole Gantry app: database + migrations, job queues, services, routes, OpenAPI,
 * the SPA and socket.io. `database` may be handed in (tests share one), otherwise it opens from config.
 */
export interface BuildAppOptions {
  database?: Database;
  baseUrl?: () => string;
  /** Stand-ins handed in by tests. */
  gitAccess?: GitAccess;
  componentsUsedByEnvironments?: (componentId: string) => Promise<string[]>;
  cloudVerifier?: CloudVerifier;
  /** Cloud credentials for deployments (tests hand in fixed ones instead of assuming roles). */
  deploymentCredentials?: StageCredentials;
  /** AWS SDK clients for CloudFormation deployments (tests hand in stubs). */
  cloudFormationClients?: Parameters<typeof createDeploymentsModule>[0]['cloudFormationClients'];
  /** Start All / Stop All of a saving schedule (tests hand in a recorder instead of AWS). */
  scheduleStateChange?: Parameters<typeof createSchedulesService>[0]['changeState'];
}

export async function buildApp(config: Config, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.GANTRY_LOG_LEVEL },
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(config.GANTRY_LOG_LEVEL) }),
    // Off unless TRUST_PROXY names the proxy: otherwise X-Forwarded-For lets a client pick its address (and rate-limit key).
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 5 * 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  const database = opts.database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir }));
  const master = loadMasterKey(config.GANTRY_SECRET_KEY, config.dataDir);
  const secrets = createSecretBox(master);
  const usersStore = createUsersStore(database.db);
  const idTokens = createIdTokens(deriveKey(master, 'id-token'), config.GANTRY_ID_TOKEN_TTL_SECONDS, usersStore.tokensValidAfter);
  const outboxKey = deriveKey(master, 'outbox').toString('base64url').slice(0, 24);
  const baseUrl = opts.baseUrl ?? (() => (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, ''));

  const runWorkers = config.GANTRY_ROLE !== 'api';
  // the data dir (and an artifact folder of its own) never appear in a run's box, even under /opt (DESIGN §5)
  const hiddenFromRuns = [config.dataDir, ...(config.ARTIFACT_STORE && !config.ARTIFACT_STORE.includes('://') ? [path.resolve(config.ARTIFACT_STORE)] : [])];
  const sandbox = createSandbox({ mode: config.BUILD_SANDBOX, uid: config.GANTRY_SANDBOX_UID, hidden: hiddenFromRuns });
  if (runWorkers && sandbox.unavailable) app.log.error(sandbox.unavailable);
  if (runWorkers && sandbox.mode === 'none') app.log.warn('BUILD_SANDBOX=none: build steps and terraform runs execute unsandboxed, with the server\'s own rights and environment');
  const jobs = await startJobs({ executeSql: database.executeSql, runWorkers, concurrency: config.GANTRY_JOB_CONCURRENCY, log: app.log });
  const mailer = await createMailer({ db: database.db, jobs, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log: app.log });

  const github = config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET
    ? createGithubIdentity({ clientId: config.GITHUB_CLIENT_ID, clientSecret: config.GITHUB_CLIENT_SECRET, oauthUrl: config.GITHUB_OAUTH_URL, apiUrl: config.GITHUB_API_URL })
    : null;

  const billing = createBillingService({ store: createBillingStore(database.db) });
  await billing.ensurePlans();
  const users = createUsersService({ db: database.db, store: usersStore, mailer, idTokens, baseUrl, github, refreshSuccessorKey: deriveKey(master, 'refresh-successor') });
  const projectsStore = createProjectsStore(database.db);
  // Per-project counts come from modules built later (components now, environments next): bound once they exist.
  let componentCounts: (ids: string[]) => Promise<Map<string, number>> = async () => new Map();
  let stageCounts: (ids: string[]) => Promise<Map<string, number>> = async () => new Map();
  let deployedStages: (projectId: string) => Promise<string[]> = async () => [];
  const projects = createProjectsService({
    db: database.db, store: projectsStore, users, billing, mailer, baseUrl,
    counts: async (ids) => {
      const [c, s] = await Promise.all([componentCounts(ids), stageCounts(ids)]);
      return new Map(ids.map((id) => [id, { stagesCount: s.get(id) ?? 0, componentsCount: c.get(id) ?? 0 }]));
    },
    deployedStages: (projectId) => deployedStages(projectId),
  });
  const membership = (projectId: string, userId: string) => projects.permission(projectId, userId);
  const guards = createGuards(idTokens, membership);

  const hooks = createHooks();
  const cloudAccounts = createCloudAccountsModule({ db: database.db, secrets, guards, verifier: opts.cloudVerifier, hooks, log: app.log });
  const stages = createStagesService({
    store: createStagesStore(database.db),
    billing,
    secrets,
    // components is built further down; these run only at request time
    components: {
      schema: (projectId, componentId, version) => components.service.versionSchema(projectId, componentId, version),
      summary: async (projectId, componentId) => {
        const row = await components.service.visibleRow(projectId, componentId);
        return { id: row.id, name: row.name, type: row.type };
      },
    },
    // The environment's cloud account must be one of the project's.
    cloudAccount: async (projectId, body) => {
      if (body.cloudProvider === 'aws') {
        return (await cloudAccounts.service.listAws(projectId)).some((a) => a.id === body.awsAccountId) ? null : 'Please select an AWS account of this project';
      }
      if (body.cloudProvider === 'azurerm') {
        return (await cloudAccounts.service.listAzure(projectId)).some((a) => a.tenantId === body.tenantId && a.subscriptionId === body.subscriptionId) ? null : 'Please select an Azure subscription of this project';
      }
      return (await cloudAccounts.service.listGcp(projectId)).some((a) => a.gcpProjectId === body.gcpProjectId) ? null : 'Please select a Google Cloud project of this project';
    },
  });
  stageCounts = stages.countsFor;
  hooks.cloudAccountUsers.provide((projectId, account) => stages.namesUsingCloudAccount(projectId, account));
  deployedStages = stages.deployedNames;
  const realtime = createRealtime({ idTokens, membership, pool: database.pool });
  const artifacts = createArtifactStore(config.ARTIFACT_STORE, config.dataDir);

  let pipelines!: PipelinesService;
  const gitAccounts = createGitAccountsModule({
    db: database.db, secrets, guards, config, baseUrl,
    usedByPipelines: (gitAccountId) => pipelines.namesUsingGitAccount(gitAccountId),
  });
  const gitAccess: GitAccess = opts.gitAccess ?? gitAccounts.service;
  const buildsStore = createBuildsStore(database.db);
  const builds = createBuildsService({ store: buildsStore, jobs, realtime, artifacts, billing, pipelines: () => pipelines, git: gitAccess });
  pipelines = createPipelinesService({ db: database.db, store: createPipelinesStore(database.db), secrets, billing, git: gitAccess, baseUrl, builds });
  const notifications = createNotificationsService({
    store: createNotificationsStore(database.db),
    realtime,
    memberIds: async (projectId) => (await projects.members(projectId)).map((m) => m.id),
    userName: async (userId) => {
      const [u] = userId ? await users.byIds([userId]) : [];
      return u ? [u.firstName, u.lastName].filter(Boolean).join(' ') || u.email : null;
    },
  });
  const components = createComponentsModule({ db: database.db, guards, artifacts, pipelines, permission: membership, usedByEnvironments: opts.componentsUsedByEnvironments ?? ((id) => stages.stagesUsingComponent(id)) });
  await components.service.seedVendor();
  componentCounts = components.service.countsFor;
  const runner = createBuildRunner({
    store: buildsStore, builds, pipelines, git: gitAccess, realtime, artifacts, workspaceRoot: path.join(config.dataDir, 'workspaces'), sandbox, log: app.log,
    onFinished: async (b) => {
      const pipeline = await pipelines.byIdAnyProject(b.pipelineId);
      if (pipeline) await notifications.buildFinished({ ...b, pipelineName: pipeline.name });
    },
  });
  builds.setRecoverer(runner.recover);
  if (runWorkers) builds.setOnQueued((buildId) => runner.runSoon(buildId, config.GANTRY_JOB_CONCURRENCY));
  registerLogStreams(realtime, { membership, builds, store: buildsStore });
  for (let i = 0; i < config.GANTRY_JOB_CONCURRENCY; i++) await jobs.work<{ buildId: string }>(BUILD_QUEUE, ({ buildId }) => runner.run(buildId));
  let recovery: NodeJS.Timeout | undefined;
  if (runWorkers) {
    await runner.recover();
    recovery = setInterval(() => runner.recover().catch((err) => app.log.error({ err }, 'build recovery failed')), 10_000);
    recovery.unref();
  }

  const deployments = await createDeploymentsModule({
    db: database.db, guards, jobs, realtime, membership, log: app.log, billing, stages, components: components.service,
    dataDir: config.dataDir, terraformBin: config.TERRAFORM_BIN, sandbox, secrets, databaseUrl: config.DATABASE_URL,
    concurrency: config.GANTRY_JOB_CONCURRENCY, runWorkers, cloudFormationClients: opts.cloudFormationClients,
    credentialsFor: opts.deploymentCredentials ?? (async (stage) => {
      if (stage.cloudProvider === 'azurerm') return cloudAccounts.service.credentialsFor(stage.projectId, 'azurerm', { tenantId: stage.tenantId!, subscriptionId: stage.subscriptionId! });
      if (stage.cloudProvider === 'google') return cloudAccounts.service.credentialsFor(stage.projectId, 'google', stage.gcpProjectId!);
      return cloudAccounts.service.credentialsFor(stage.projectId, 'aws', stage.awsAccountId!);
    }),
  });

  const services: Services = { database, jobs, mailer, secrets, guards, realtime, users, projects, billing, gitAccounts: gitAccounts.service, pipelines, builds, notifications, components: components.service, cloudAccounts: cloudAccounts.service, stages, deployments: deployments.service, outboxKey };
  app.decorate('services', services);

  if (config.GANTRY_RATE_LIMIT) await app.register(rateLimit, { global: false, enableDraftSpec: true });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Gantry API', version: '0.1.0', description: 'Every route of the Gantry portal. Authenticate with `Authorization: Bearer <idToken>`.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(usersRoutes({ users, guards, mailer, githubAuthorizeUrl: github?.authorizeUrl() ?? null, outboxKey }), { prefix: '/ms-usermanagement' });
  await app.register(promoSignUpRoutes({ billing }), { prefix: '/ms-usermanagement' });
  await app.register(projectUsersLookupRoutes({ projects, guards }), { prefix: '/ms-usermanagement' });
  await app.register(projectsRoutes({ projects, guards }), { prefix: '/ms-project' });
  await app.register(billingRoutes({ billing, guards }), { prefix: '/ms-project' });
  await app.register(gitAccounts.routes, { prefix: '/ms-ap' });
  await app.register(pipelinesRoutes({ pipelines, guards }), { prefix: '/ms-ap' });
  await app.register(buildsRoutes({ builds, pipelines, guards }), { prefix: '/ms-ap' });
  await app.register(webhookRoutes({ builds }), { prefix: '/ms-ap' });
  await app.register(components.routes, { prefix: '/ms-engine' });
  await app.register(cloudAccounts.routes, { prefix: '/ms-aws' });
  await app.register(stagesRoutes({ stages, guards }), { prefix: '/ms-engine' });
  await app.register(deployments.routes, { prefix: '/ms-engine' });
  await app.register(deployments.timeRoutes, { prefix: '/ms-elasticsearch' });
  const schedules = createSchedulesService({
    store: createSchedulesStore(database.db), billing,
    awsAccountIds: async (projectId) => (await cloudAccounts.service.listAws(projectId)).map((a) => a.id),
    changeState: opts.scheduleStateChange ?? (async (projectId, schedule, action) => {
      const env = await cloudAccounts.service.credentialsFor(projectId, 'aws', schedule.awsAccountId);
      const credentials = { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY!, sessionToken: env.AWS_SESSION_TOKEN };
      return changeTaggedState({ region: schedule.awsRegion, credentials, tagKey: schedule.resourcesTagKey, tagValue: schedule.resourcesTagValue }, action);
    }),
  });
  await app.register(schedulesRoutes({ schedules, guards }), { prefix: '/ms-cloud-cost-optimizer' });
  await app.register(notificationsRoutes({ notifications, guards }), { prefix: '/ms-notification' });
  await app.register(timelineRoutes({ builds, guards }), { prefix: '/ms-elasticsearch' });
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true, database: database.kind }));

  const webDist = config.GANTRY_WEB_DIST ? path.resolve(config.GANTRY_WEB_DIST) : defaultWebDist;
  if (fs.existsSync(path.join(webDist, 'index.html'))) {
    await app.register(fastifyStatic, { root: webDist, prefix: '/', wildcard: false, index: false });
    const indexHtml = fs.readFileSync(path.join(webDist, 'index.html'));
    app.get('/*', { schema: { hide: true } }, (req, reply) => {
      const p = req.url.split('?')[0]!;
      if (p.startsWith('/ms-') || p.startsWith('/docs')) return reply.status(404).send({ message: `Route GET ${p} not found`, code: 'NotFound' });
      const file = path.join(webDist, path.normalize(p));
      if (file.startsWith(webDist) && p !== '/' && fs.existsSync(file) && fs.statSync(file).isFile()) return reply.sendFile(path.relative(webDist, file));
      return reply.type('text/html').header('cache-control', 'no-cache').send(indexHtml);
    });
  } else {
    app.log.warn(`No built web app at ${webDist}; serving the API only (run "npm run build -w @gantry/web").`);
  }

  app.addHook('onReady', async () => {
    realtime.attach(app.server);
  });
  // Stopping (SIGTERM in main, app.close() in tests) keeps one order. Fastify answers new requests
  // with 503 before preClose; the runs, their logs and the sockets end here, before the HTTP server
  // waits for its open connections (a connected socket.io client would otherwise hold it open).
  app.addHook('preClose', async () => {
    await runShutdownSteps(app.log, [
      { name: 'stop taking jobs', run: async () => { if (recovery) clearInterval(recovery); await jobs.stopWorking(); } },
      { name: 'end the running builds and deployments', withinMs: STOP_RUNS_WITHIN_MS + 5_000, run: () => Promise.all([runner.stop(STOP_RUNS_WITHIN_MS), deployments.stop(STOP_RUNS_WITHIN_MS)]) },
      { name: 'close socket.io', withinMs: 5_000, run: () => realtime.close() },
    ]);
  });
  app.addHook('onClose', async () => {
    await runShutdownSteps(app.log, [
      { name: 'stop the job queue', withinMs: 10_000, run: () => jobs.stop() },
      ...(opts.database ? [] : [{ name: 'close the database', run: () => database.close() }]),
    ]);
  });
  return app;
}
