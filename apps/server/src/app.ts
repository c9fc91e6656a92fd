import Fastify, { LogController, type FastifyInstance, type FastifyServerFactory } from 'fastify';
import { serializerCompiler, validatorCompiler, jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import rateLimit from '@fastify/rate-limit';
import type { Config } from './config.js';
import { openDatabase, type Database } from './platform/db.js';
import { registerErrorHandler } from './platform/errors.js';
import { checkedJsonBodies } from './platform/json-body.js';
import { securityHeaders } from './platform/security-headers.js';
import { loadMasterKey, deriveKey, createSecretBox } from './platform/secrets.js';
import { createIdTokens } from './platform/tokens.js';
import { createGuards, type MembershipLookup } from './platform/auth.js';
import { startJobs } from './platform/jobs.js';
import { createMailer } from './platform/mail.js';
import { createRealtime } from './platform/realtime.js';
import { artifactLocation, openArtifactStore } from './platform/artifacts.js';
import { createHooks } from './platform/hooks.js';
import { serveSpa, webDistOf } from './platform/spa.js';
import { moduleList, type ModuleParts, type Platform } from './platform/module.js';
import { createSandbox } from './integrations/executor/sandbox.js';
import { runShutdownSteps, STOP_RUNS_WITHIN_MS } from './platform/shutdown.js';
import { billingModule } from './modules/billing/billing.module.js';
import { usersModule } from './modules/users/users.module.js';
import { projectsModule } from './modules/projects/projects.module.js';
import { billingAdminModule } from './modules/billing/billing-admin.module.js';
import { gitAccountsModule } from './modules/git-accounts/git-accounts.module.js';
import { registriesModule } from './modules/registries/registries.module.js';
import { clustersModule } from './modules/clusters/clusters.module.js';
import { servicesModule } from './modules/services/services.module.js';
import { pipelinesModule } from './modules/pipelines/pipelines.module.js';
import { notificationsModule } from './modules/notifications/notifications.module.js';
import { componentsModule } from './modules/components/components.module.js';
import { cloudAccountsModule } from './modules/cloud-accounts/cloud-accounts.module.js';
import { stagesModule } from './modules/stages/stages.module.js';
import { deploymentsModule } from './modules/deployments/deployments.module.js';
import { schedulesModule } from './modules/schedules/schedules.module.js';
import { advisorModule } from './modules/advisor/advisor.module.js';
import { costExplorerModule } from './modules/cost-explorer/cost-explorer.module.js';

/** Every module, in dependency order: a module sees the apis of those before it; later ones reach it through hooks. */
const modules = moduleList()
  .add(billingModule)
  .add(usersModule)
  .add(projectsModule)
  .add(billingAdminModule)
  .add(gitAccountsModule)
  .add(registriesModule)
  .add(clustersModule)
  .add(notificationsModule)
  .add(servicesModule)
  .add(pipelinesModule)
  .add(componentsModule)
  .add(cloudAccountsModule)
  .add(schedulesModule)
  .add(advisorModule)
  .add(costExplorerModule)
  .add(stagesModule)
  .add(deploymentsModule);

type Apis = Awaited<ReturnType<typeof modules.create>>['apis'];
/** Stand-ins per module (tests): e.g. `{ deployments: { credentialsFor }, pipelines: { gitAccess } }`. */
export type ModuleOverrides = NonNullable<Parameters<typeof modules.create>[1]>;

export interface Services extends Pick<Platform, 'database' | 'jobs' | 'mailer' | 'secrets' | 'guards' | 'realtime' | 'outboxKey'> {
  users: Apis['users'];
  projects: Apis['projects'];
  billing: Apis['billing'];
  gitAccounts: Apis['gitAccounts'];
  registries: Apis['registries'];
  clusters: Apis['clusters'];
  services: Apis['services'];
  pipelines: Apis['pipelines']['pipelines'];
  builds: Apis['pipelines']['builds'];
  notifications: Apis['notifications'];
  components: Apis['components'];
  cloudAccounts: Apis['cloudAccounts'];
  stages: Apis['stages'];
  deployments: Apis['deployments'];
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/**
 * Builds the whole Gantry app: database + migrations, job queues, modules, routes, OpenAPI,
 * the SPA and socket.io. `database` may be handed in (tests share one), otherwise it opens from config.
 */
export interface BuildAppOptions {
  database?: Database;
  baseUrl?: () => string;
  /** Stand-ins handed in by tests, per module. */
  overrides?: ModuleOverrides;
  /** The HTTP server made before the app (platform/front-door.ts); by default Fastify makes its own. */
  serverFactory?: FastifyServerFactory;
  /** A worker makes its box networks ready at start (a server's start); otherwise with its first box (tests' apps, most of which run none). */
  warmBoxNetworks?: boolean;
}

export async function buildApp(config: Config, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.GANTRY_LOG_LEVEL },
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(config.GANTRY_LOG_LEVEL) }),
    // Off unless TRUST_PROXY names the proxy: otherwise X-Forwarded-For lets a client pick its address (and rate-limit key).
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 5 * 1024 * 1024,
    ...(opts.serverFactory ? { serverFactory: opts.serverFactory } : {}),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  checkedJsonBodies(app);

  // the artifact store is checked (a bucket's answer) while the database opens; a store that cannot be used stops the start
  const opening = openArtifactStore(config.ARTIFACT_STORE, config.dataDir);
  opening.catch(() => undefined);
  const database = opts.database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir }));
  const artifacts = await opening.catch(async (err: unknown) => {
    if (!opts.database) await database.close();
    throw err;
  });
  const master = loadMasterKey(config.GANTRY_SECRET_KEY, config.dataDir);
  const hooks = createHooks();
  const idTokens = createIdTokens(deriveKey(master, 'id-token'), config.GANTRY_ID_TOKEN_TTL_SECONDS, (userId) => hooks.tokensValidAfter.ask(userId));
  const membership: MembershipLookup = (projectId, userId) => hooks.membership.ask(projectId, userId);

  const runWorkers = config.GANTRY_ROLE !== 'api';
  // the data dir (and an artifact folder of its own) never appear in a run's box, even under /opt (DESIGN §5)
  const store = artifactLocation(config.ARTIFACT_STORE, config.dataDir);
  const hiddenFromRuns = [config.dataDir, ...(config.ARTIFACT_STORE && store.kind === 'folder' ? [store.path] : [])];
  const sandbox = createSandbox({
    mode: config.BUILD_SANDBOX,
    uid: config.GANTRY_SANDBOX_UID,
    hidden: hiddenFromRuns,
    network: config.GANTRY_BOX_NETWORK,
    loopbackPorts: config.GANTRY_BOX_LOOPBACK_PORTS,
    // a worker keeps a box network ready: a build's clone or a deploy's terraform starts without waiting for pasta
    networkPool: runWorkers,
  });
  if (runWorkers && sandbox.unavailable) app.log.error(sandbox.unavailable);
  if (runWorkers && opts.warmBoxNetworks) sandbox.warmNetwork();
  if (runWorkers && sandbox.mode === 'none')
    app.log.warn("BUILD_SANDBOX=none: build steps and terraform runs execute unsandboxed, with the server's own rights and environment");
  const jobs = await startJobs({
    executeSql: database.executeSql,
    runWorkers,
    concurrency: config.GANTRY_JOB_CONCURRENCY,
    log: app.log,
    pollingIntervalSeconds: database.kind === 'pglite' ? 5 : 0.5,
  });
  const platform: Platform = {
    config,
    database,
    db: database.db,
    jobs,
    hooks,
    idTokens,
    membership,
    sandbox,
    runWorkers,
    log: app.log,
    mailer: await createMailer({ db: database.db, jobs, smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, log: app.log }),
    secrets: createSecretBox(master),
    deriveKey: (purpose) => deriveKey(master, purpose),
    outboxKey: deriveKey(master, 'outbox').toString('base64url').slice(0, 24),
    guards: createGuards(idTokens, membership),
    realtime: createRealtime({ idTokens, membership, pool: database.pool }),
    artifacts,
    baseUrl: opts.baseUrl ?? (() => (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '')),
  };
  const { realtime } = platform;

  const { apis, parts } = await modules.create(platform, opts.overrides);
  // by role: `serve` (api) mounts routes and sockets, `worker` mounts jobs and never listens, `all` both
  const servesHttp = config.GANTRY_ROLE !== 'worker';
  for (const part of parts) {
    if (servesHttp) part.socket?.(realtime);
    if (!runWorkers) continue;
    for (let i = 0; i < config.GANTRY_JOB_CONCURRENCY; i++) {
      for (const job of part.jobs ?? []) await jobs.work<never>(job.queue, job.handler);
    }
  }
  for (const part of parts) await part.start?.();

  const services: Services = {
    database,
    jobs,
    mailer: platform.mailer,
    secrets: platform.secrets,
    guards: platform.guards,
    realtime,
    outboxKey: platform.outboxKey,
    users: apis.users,
    projects: apis.projects,
    billing: apis.billing,
    gitAccounts: apis.gitAccounts,
    registries: apis.registries,
    clusters: apis.clusters,
    services: apis.services,
    pipelines: apis.pipelines.pipelines,
    builds: apis.pipelines.builds,
    notifications: apis.notifications,
    components: apis.components,
    cloudAccounts: apis.cloudAccounts,
    stages: apis.stages,
    deployments: apis.deployments,
  };
  app.decorate('services', services);

  if (servesHttp) await mountHttp(app, config, database, parts, realtime);
  // a worker serves no sockets, but its runs' events reach the api nodes' clients through socket.io's adapter
  else app.addHook('onReady', async () => realtime.attach());
  // Stopping (SIGTERM in main, app.close() in tests) keeps one order. Fastify answers new requests
  // with 503 before preClose; the runs, their logs and the sockets end here, before the HTTP server
  // waits for its open connections (a connected socket.io client would otherwise hold it open).
  app.addHook('preClose', async () => {
    await runShutdownSteps(app.log, [
      { name: 'stop taking jobs', run: () => jobs.stopWorking() },
      {
        name: 'end the running builds and deployments',
        withinMs: STOP_RUNS_WITHIN_MS + 5_000,
        run: () => Promise.all(parts.map((part) => part.stop?.(STOP_RUNS_WITHIN_MS))),
      },
      { name: 'close socket.io', withinMs: 5_000, run: () => realtime.close() },
      { name: 'end the box networks kept ready', run: () => sandbox.close() },
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

/** The HTTP side of an api or all-in-one process: rate limits, OpenAPI, every module's routes, the SPA and socket.io. */
async function mountHttp(app: FastifyInstance, config: Config, database: Database, parts: ModuleParts[], realtime: Platform['realtime']) {
  securityHeaders(app);
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

  // Who may call a route is checked before what they sent: a route's preHandler is its guard (auth.ts: signed in,
  // member, permission), and runs here as preValidation, so a Read member posting an invalid body to a write route
  // gets 403, not the body's validation rules (which a preHandler answered after, with 400).
  app.addHook('onRoute', (route) => {
    if (!route.preHandler) return;
    route.preValidation = [...[route.preHandler].flat(), ...[route.preValidation ?? []].flat()];
    delete route.preHandler;
  });
  for (const part of parts) {
    for (const routes of part.routes ?? []) await app.register(routes.plugin, { prefix: routes.prefix });
  }
  app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true, database: database.kind }));

  const webDist = webDistOf(config);
  if (!(await serveSpa(app, webDist))) {
    app.log.warn(`No built web app at ${webDist}; serving the API only (run "npm run build -w @gantry/web").`);
  }

  app.addHook('onReady', async () => {
    realtime.attach(app.server);
  });
}
