import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import {
  createTestApp,
  registerUser,
  createProject,
  addMember,
  grantPlan,
  bearer,
  insertGitAccount,
  pipelineRow,
  acceptingCloudVerifier,
  TEST_AWS_ACCOUNT,
  awsStage,
  until,
  type TestApp,
} from '../helpers.js';
import { io as ioClient } from 'socket.io-client';
import { REALTIME_PATH } from '../../src/platform/realtime.js';
import { COST_TAG_KEY, SCALING_DEFAULTS, scheduleToCron } from '@gantry/contracts';
import { pipelines } from '../../src/modules/pipelines/pipelines.tables.js';
import { gitAccounts } from '../../src/modules/git-accounts/git-accounts.tables.js';
import { builds, buildSteps, buildLogs, buildArtifacts } from '../../src/modules/builds/builds.tables.js';
import { components } from '../../src/modules/components/components.tables.js';
import { stages, stageResources } from '../../src/modules/stages/stages.tables.js';
import { deployments, deploymentLogs, deploymentPlans } from '../../src/modules/deployments/deployments.tables.js';
import { awsAccounts, gcpAccounts, azureAccounts } from '../../src/modules/cloud-accounts/cloud-accounts.tables.js';
import { schedules } from '../../src/modules/schedules/schedules.tables.js';
import { costReports } from '../../src/modules/cost-explorer/cost-explorer.tables.js';
import { kubernetesClusters } from '../../src/modules/clusters/clusters.tables.js';
import { dockerRegistries } from '../../src/modules/registries/registries.tables.js';
import { microservices, serviceDeployments } from '../../src/modules/services/services.tables.js';
import { notifications, notificationIntegrations } from '../../src/modules/notifications/notifications.tables.js';

/**
 * Every project route the server registers (its OpenAPI document), against project A's real objects:
 *  - a member of project B, with B's id in the path and A's object ids beside it (the classic IDOR mix), gets a 4xx
 *    and changes nothing of A;
 *  - a member of B with A's project id gets 404, no session 401;
 *  - A's lowest roles are refused what spec §6 does not allow them (read: any change; write: managing users;
 *    admin: updating or deleting the project and its billing);
 *  - no body that A's owner reads holds one of the stored secrets.
 * A route added later is in the matrix at once: its path parameters must be named in `objectOf`, its body (when the
 * generated one does not pass) in `bodies`.
 */
const SECRET = {
  git: 'sec21-git-token-4f1c',
  cluster: 'sec21-cluster-token-9a2e',
  registry: 'sec21-registry-password-77b0',
  externalId: 'sec21-external-id-c3d1',
  azure: 'sec21-azure-client-secret-5e8f',
  slack: 'https://hooks.slack.com/services/T000/B000/sec21slacksecret',
  variable: 'sec21-pipeline-secret-variable-0d6a',
  deployConfig: 'sec21-deploy-configuration-secret-b9c2',
  webhook: 'sec21-webhook-secret-1e7a',
};

let t: TestApp;
const A: Record<string, string> = {};
let owner: { idToken: string };
let roles: Record<'admin' | 'write' | 'read', { idToken: string; profile: { id: string } }>;
let outsider: { idToken: string };
let projectB: string;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Route {
  method: Method;
  path: string;
  body?: unknown;
}

beforeAll(async () => {
  t = await createTestApp({}, { overrides: { cloudAccounts: { verifier: acceptingCloudVerifier } } });
  await registerUser(t, 'sec21-instance-admin@example.com'); // the first account is the instance admin: none of the below
  owner = await registerUser(t, 'sec21-owner-a@example.com');
  A.projectId = await createProject(t, owner.idToken, 'Alpha');
  await grantPlan(t, owner.idToken, A.projectId);
  roles = {
    admin: await addMember(t, owner.idToken, A.projectId, 'sec21-admin-a@example.com', 'admin'),
    write: await addMember(t, owner.idToken, A.projectId, 'sec21-write-a@example.com', 'write'),
    read: await addMember(t, owner.idToken, A.projectId, 'sec21-read-a@example.com', 'read'),
  };
  outsider = await registerUser(t, 'sec21-owner-b@example.com');
  projectB = await createProject(t, outsider.idToken, 'Bravo');
  await grantPlan(t, outsider.idToken, projectB);
  await seedProjectA();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** One object of every kind in project A, each with the secret it may hold (rows as the modules write them). */
async function seedProjectA() {
  const { db } = t.app.services.database;
  const seal = (s: string) => t.app.services.secrets.seal(s);
  const projectId = A.projectId!;
  const one = <R>(rows: R[]) => rows[0]!;

  const git = await one(
    await db
      .insert(gitAccounts)
      .values({ projectId, type: 'github', accountName: 'alpha', externalId: '1', accessTokenSealed: seal(SECRET.git) })
      .returning(),
  );
  A.gitAccountId = git.id;
  const pipeline = await one(
    await db
      .insert(pipelines)
      .values(
        pipelineRow(projectId, git.id, {
          name: 'alpha-app',
          environmentVariables: [{ key: 'TOKEN', value: seal(SECRET.variable), sensitive: true }],
          webhookSecretSealed: seal(SECRET.webhook),
        }),
      )
      .returning(),
  );
  A.pipelineId = pipeline.id;
  const build = await one(
    await db
      .insert(builds)
      .values({ projectId, pipelineId: pipeline.id, number: 1, status: 'SUCCEEDED', branch: 'main', trigger: 'manual', stages: ['Build'] })
      .returning(),
  );
  A.buildId = build.id;
  await db.insert(buildSteps).values({ buildId: build.id, name: 'Build', type: 'generic', position: 0, status: 'SUCCEEDED' });
  await db.insert(buildLogs).values({ buildId: build.id, step: 'Build', seq: 0, text: 'alpha log line' });
  const artifact = await one(
    await db
      .insert(buildArtifacts)
      .values({ buildId: build.id, step: 'Build', kind: 'json', name: 'alpha.json', location: 'missing/alpha.json', files: 1, size: 2 })
      .returning(),
  );
  A.artifactId = artifact.id;
  A.step = 'Build';

  const component = await one(
    await db
      .insert(components)
      .values({
        projectId,
        name: 'alpha-component',
        type: 'terraform',
        description: 'A',
        cloudProvider: 'aws',
        infrastructureAsCodeTool: 'terraform',
        pipelineId: pipeline.id,
        artifactStep: 'Build',
      })
      .returning(),
  );
  A.componentId = component.id;
  A.targetProjectId = projectB;

  await db.insert(awsAccounts).values({
    projectId,
    awsAccountId: TEST_AWS_ACCOUNT,
    accountName: 'alpha',
    iamRole: `arn:aws:iam::${TEST_AWS_ACCOUNT}:role/gantry`,
    externalIdSealed: seal(SECRET.externalId),
  });
  A.awsAccountId = TEST_AWS_ACCOUNT;
  await db
    .insert(gcpAccounts)
    .values({ projectId, gcpProjectId: 'alpha-gcp', projectName: 'alpha', targetServiceAccount: 'sa@alpha-gcp.iam.gserviceaccount.com' });
  A.gcpProjectId = 'alpha-gcp';
  await db.insert(azureAccounts).values({
    projectId,
    tenantId: '11111111-1111-4111-8111-111111111111',
    subscriptionId: '22222222-2222-4222-8222-222222222222',
    applicationId: '33333333-3333-4333-8333-333333333333',
    subscriptionName: 'alpha',
    clientSecretSealed: seal(SECRET.azure),
  });
  A.tenantId = '11111111-1111-4111-8111-111111111111';
  A.subscriptionId = '22222222-2222-4222-8222-222222222222';

  const stage = await one(
    await db
      .insert(stages)
      .values({
        projectId,
        name: 'alpha-stage',
        description: 'A',
        cloudProvider: 'aws',
        iacTool: 'terraform',
        awsAccountId: TEST_AWS_ACCOUNT,
        awsRegion: 'eu-central-1',
      })
      .returning(),
  );
  A.stageId = stage.id;
  await db.insert(stageResources).values({ stageId: stage.id, name: 'alpharesource', componentId: component.id, componentVersion: '1', configurations: [] });
  A.resourceName = 'alpharesource';
  const deployment = await one(
    await db.insert(deployments).values({ stageId: stage.id, projectId, kind: 'DEPLOY', status: 'DEPLOY_SUCCEEDED', active: false }).returning(),
  );
  A.deploymentId = deployment.id;
  await db.insert(deploymentLogs).values({ deploymentId: deployment.id, seq: 0, text: 'alpha terraform log' });
  const plan = await one(await db.insert(deploymentPlans).values({ stageId: stage.id, projectId, status: 'READY' }).returning());
  A.planId = plan.id;

  const schedule = await one(
    await db
      .insert(schedules)
      .values({
        projectId,
        name: 'alpha-schedule',
        startExpression: 'cron(0 8 ? * MON-FRI *)',
        stopExpression: 'cron(0 18 ? * MON-FRI *)',
        awsAccountId: TEST_AWS_ACCOUNT,
        awsRegion: 'eu-central-1',
        resourcesTagKey: 'gantry-schedule',
        resourcesTagValue: 'alpha',
      })
      .returning(),
  );
  A.scheduleId = schedule.id;
  const report = await one(
    await db
      .insert(costReports)
      .values({
        projectId,
        reportName: 'alpha-report',
        awsAccountIds: [TEST_AWS_ACCOUNT],
        regions: ['eu-central-1'],
        emails: ['a@example.com'],
        granularity: 'WEEKLY',
      })
      .returning(),
  );
  A.reportId = report.id;

  await db.insert(kubernetesClusters).values({ projectId, name: 'alpha-cluster', endpoint: 'https://127.0.0.1:1', tokenSealed: seal(SECRET.cluster) });
  A.clusterId = 'alpha-cluster';
  A.namespace = 'default';
  await db.insert(dockerRegistries).values({
    projectId,
    name: 'alpha-registry',
    provider: 'dockerhub',
    credentials: { username: 'alpha' },
    secretsSealed: seal(JSON.stringify({ password: SECRET.registry })),
  });
  A.registryName = 'alpha-registry';
  await db
    .insert(microservices)
    .values({ projectId, name: 'alpha-service', description: 'A', registry: 'alpha-registry', imageRepository: 'alpha/app', schema: {} });
  A.microserviceName = 'alpha-service';
  await db.insert(serviceDeployments).values({
    projectId,
    clusterId: 'alpha-cluster',
    namespace: 'default',
    serviceName: 'alpha-service',
    isPublic: false,
    status: 'SUCCEEDED',
    version: '1',
    imageRepository: 'alpha/app',
    initiatorKind: 'user',
    configurationSealed: seal(JSON.stringify([{ key: 'PASSWORD', value: SECRET.deployConfig, sensitive: true }])),
  });
  const notification = await one(
    await db
      .insert(notifications)
      .values({ userId: roles.read.profile.id, projectId, author: 'alpha', message: 'alpha built', entityType: 'PIPELINE', itemId: pipeline.id })
      .returning(),
  );
  A.notificationId = notification.id;
  await db.insert(notificationIntegrations).values({ projectId, type: 'slack', webhookUrlSealed: seal(SECRET.slack), webhookHost: 'hooks.slack.com' });
  A.type = 'slack';
  A.userId = roles.write.profile.id;
}

/** Every project route of the OpenAPI document, with a body for its method (generated from its schema, or `bodies`). */
async function projectRoutes(): Promise<Route[]> {
  const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as {
    paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  };
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    // the instance admin's routes (billing-admin) are guarded by the instance role, not a project's
    if (!path.includes('{projectId}') || path.includes('/admin/')) continue;
    for (const [method, op] of Object.entries(operations)) {
      const key = `${method.toUpperCase()} ${path}`;
      const schema = op.requestBody?.content?.['application/json']?.schema;
      routes.push({ method: method.toUpperCase() as Method, path, body: key in bodies ? bodies[key]!() : schema ? exampleOf(schema) : undefined });
    }
  }
  return routes;
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  minLength?: number;
  minItems?: number;
  default?: unknown;
}
function exampleOf(s: JsonSchema): unknown {
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (s.enum) return s.enum[0];
  const alt = s.anyOf ?? s.oneOf ?? s.allOf;
  if (alt) return exampleOf(alt.find((x) => x.type !== 'null') ?? alt[0]!);
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(s.properties ?? {}).map(([k, v]) => [k, exampleOf(v)]));
    case 'array':
      return s.minItems ? Array.from({ length: s.minItems }, () => exampleOf(s.items ?? {})) : [];
    case 'string':
      if (s.format === 'uuid') return A.pipelineId;
      if (s.format === 'email') return 'sec21-someone@example.com';
      if (s.format === 'uri') return 'https://example.com/x';
      return 'sec21x'.padEnd(s.minLength ?? 0, 'x');
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

/** Bodies the schema alone does not make valid (refinements): each must pass validation, so the route's own check is what answers. */
const bodies: Record<string, () => unknown> = {
  'POST /ms-ap/projects/{projectId}/pipelines/{pipelineId}/builds': () => ({ ref: 'refs/heads/main' }),
  'POST /ms-kube/projects/{projectId}/kubernetes/{clusterId}/namespaces/{namespace}/microservices/{microserviceName}/deploy': () => ({
    version: 'v1',
    deployment: { configurations: [] },
    autoScaling: { ...SCALING_DEFAULTS },
  }),
  'PUT /ms-aws/projects/{projectId}/aws-accounts/{awsAccountId}': () => ({ accountName: 'taken', iamRole: `arn:aws:iam::${TEST_AWS_ACCOUNT}:role/taken` }),
  'PUT /ms-cloud-cost-optimizer/projects/{projectId}/reports/{reportId}': () => ({
    reportName: 'taken',
    awsAccountIds: [TEST_AWS_ACCOUNT],
    regions: ['eu-west-1'],
    emails: ['ops@example.com'],
    granularity: 'WEEKLY',
    costAllocationTag: null,
  }),
  'PUT /ms-cloud-cost-optimizer/projects/{projectId}/schedules/{scheduleId}': () => ({
    name: 'taken',
    ...scheduleToCron({ days: ['MON'], wakeHour: 8, sleepHour: 18 }, 0),
    timezone: 'UTC',
    awsAccountId: TEST_AWS_ACCOUNT,
    awsRegion: 'eu-central-1',
    resourcesTagKey: COST_TAG_KEY,
    resourcesTagValue: '6a1f7d3e-8c6e-4b0e-9b7a-1c2d3e4f5a6b',
  }),
  'PUT /ms-engine/projects/{projectId}/stages/{stageId}': () => awsStage({ name: 'taken' }),
  'PUT /ms-kube/projects/{projectId}/kubernetes/{clusterId}': () => ({ endpoint: 'https://taken.example.com' }),
};
/** Query strings a route requires. */
const queries: Record<string, string> = {
  'GET /ms-ap/projects/{projectId}/git-accounts/{gitAccountId}/branches': 'repositoryUrl=https%3A%2F%2Fexample.com%2Facme%2Fapp',
  'GET /ms-kube/projects/{projectId}/docker-registries/{registryName}/versions': 'repository=alpha%2Fapp',
  'GET /ms-kube/projects/{projectId}/kubernetes/{clusterId}/namespaces/{namespace}/microservices/{microserviceName}/logs': 'pod=alpha-pod',
  'GET /ms-kube/projects/{projectId}/kubernetes/{clusterId}/namespaces/{namespace}/microservices/{microserviceName}/logs/stream': 'pod=alpha-pod',
};

/** The path with its parameters filled: the project's id given, every other one A's object of that name. */
function urlOf(r: Route, projectId: string) {
  const query = queries[`${r.method} ${r.path}`];
  return (
    r.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name === 'projectId') return projectId;
      const v = A[name];
      if (v === undefined) throw new Error(`${r.method} ${r.path}: no object of project A for {${name}} (name one in seedProjectA)`);
      return encodeURIComponent(v);
    }) + (query ? `?${query}` : '')
  );
}
const call = (r: Route, projectId: string, idToken?: string) =>
  t.app.inject({
    method: r.method,
    url: urlOf(r, projectId),
    headers: idToken ? bearer(idToken) : {},
    ...(r.body === undefined ? {} : { payload: r.body as object }),
  });

/** What spec §6 requires of a route: view for reads, change for writes, the two user and project rows above it. */
function actionOf(r: Route): 'view' | 'change' | 'manageUsers' | 'manageProject' {
  // a member's own notifications and own subscription (the service refuses another user's)
  if (/\/ms-notification\/projects\/\{projectId\}\/(notifications\/(\{notificationId\}\/)?read|users\/\{userId\})$/.test(r.path)) return 'view';
  if (r.method === 'GET') return 'view';
  if (/^\/ms-project\/projects\/\{projectId\}\/users/.test(r.path)) return 'manageUsers';
  if (/^\/ms-project\/projects\/\{projectId\}(\/(checkout|subscription\/recurrency|promo-code))?$/.test(r.path)) return 'manageProject';
  return 'change';
}

/** A's objects as its owner reads them: every GET route's answer. */
async function snapshotOfA(routes: Route[]) {
  const seen: Record<string, string> = {};
  for (const r of routes.filter((x) => x.method === 'GET')) {
    const res = await call(r, A.projectId!, owner.idToken);
    seen[`${r.method} ${r.path}`] = `${res.statusCode} ${res.body.replace(/"(updatedAt|lastSeen|fetchedAt|now)":"[^"]*"/g, '')}`;
  }
  return seen;
}

describe('every project route, against another project and the lowest roles', { timeout: 300_000 }, () => {
  it('a member of project B reaches none of project A: A in the path is 404, B in the path with A’s ids is a 4xx that changes nothing', async () => {
    const routes = await projectRoutes();
    expect(routes.length).toBeGreaterThan(100);
    const before = await snapshotOfA(routes);
    const wrong: string[] = [];
    for (const r of routes) {
      const what = `${r.method} ${r.path}`;
      const noSession = await call(r, A.projectId!);
      if (noSession.statusCode !== 401) wrong.push(`${what} without a session: ${noSession.statusCode}`);
      const intoA = await call(r, A.projectId!, outsider.idToken);
      if (intoA.statusCode !== 404) wrong.push(`${what} into A from B: ${intoA.statusCode} ${intoA.body.slice(0, 200)}`);
      // the mix: B's own project in the path, A's objects beside it
      if (!/\{(?!projectId)\w+\}/.test(r.path)) continue;
      const mixed = await call(r, projectB, outsider.idToken);
      // 404: not found in B (a member's own subscription of another user is 403, whatever the project)
      if (mixed.statusCode !== (/\/users\/\{userId\}$/.test(r.path) && r.path.startsWith('/ms-notification') ? 403 : 404))
        wrong.push(`${what} with B's project and A's ids: ${mixed.statusCode} ${mixed.body.slice(0, 200)}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshotOfA(routes)).toEqual(before);
  });

  it("A's read, write and admin members are refused what spec §6 does not allow them (403), and change nothing", async () => {
    const routes = await projectRoutes();
    const before = await snapshotOfA(routes);
    const wrong: string[] = [];
    const refused: Record<string, ('read' | 'write' | 'admin')[]> = {
      view: [],
      change: ['read'],
      manageUsers: ['read', 'write'],
      manageProject: ['read', 'write', 'admin'],
    };
    for (const r of routes) {
      for (const role of refused[actionOf(r)]!) {
        const res = await call(r, A.projectId!, roles[role].idToken);
        if (res.statusCode !== 403) wrong.push(`${r.method} ${r.path} as ${role}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshotOfA(routes)).toEqual(before);
  });

  it("no answer to A's owner holds a stored secret (tokens, passwords, keys, the Slack URL, sensitive variables)", async () => {
    const routes = (await projectRoutes()).filter((r) => r.method === 'GET');
    const leaks: string[] = [];
    for (const r of routes) {
      const res = await call(r, A.projectId!, owner.idToken);
      for (const [what, secret] of Object.entries(SECRET)) if (res.body.includes(secret)) leaks.push(`${r.method} ${r.path}: ${what}`);
    }
    expect(leaks).toEqual([]);
  });

  it("a body naming A's objects from B's project is refused, and B gets nothing of A through it", async () => {
    const { db } = t.app.services.database;
    const gitB = await insertGitAccount(t, projectB);
    const [pipelineB] = await db
      .insert(pipelines)
      .values(pipelineRow(projectB, gitB.id, { name: 'bravo-app' }))
      .returning();
    const [stageB] = await db
      .insert(stages)
      .values({
        projectId: projectB,
        name: 'bravo-stage',
        description: 'B',
        cloudProvider: 'aws',
        iacTool: 'terraform',
        awsAccountId: '210987654321',
        awsRegion: 'eu-central-1',
      })
      .returning();
    const asB = (method: Method, url: string, payload: object) => t.app.inject({ method, url, headers: bearer(outsider.idToken), payload });
    const attempts: [string, Method, string, object][] = [
      [
        "a pipeline on A's git account",
        'POST',
        `/ms-ap/projects/${projectB}/pipelines`,
        { name: 'stolen', gitAccountId: A.gitAccountId, repositoryUrl: 'https://example.com/acme/app', branchFilter: 'main', automatedTrigger: false },
      ],
      [
        "B's pipeline moved onto A's git account",
        'PUT',
        `/ms-ap/projects/${projectB}/pipelines/${pipelineB!.id}`,
        { name: 'bravo-app', gitAccountId: A.gitAccountId, repositoryUrl: 'https://example.com/acme/other', branchFilter: 'main', automatedTrigger: false },
      ],
      [
        "a component built by A's pipeline",
        'POST',
        `/ms-engine/projects/${projectB}/components`,
        {
          name: 'stolen',
          type: 'Storage',
          description: 'B',
          cloudProvider: 'aws',
          infrastructureAsCodeTool: 'terraform',
          pipelineId: A.pipelineId,
          artifactStep: 'Build',
        },
      ],
      [
        "a replica of A's environment",
        'POST',
        `/ms-engine/projects/${projectB}/stages`,
        awsStage({ name: 'stolen', awsAccountId: '210987654321', copyFrom: A.stageId }),
      ],
      [
        "A's private component in B's environment",
        'POST',
        `/ms-engine/projects/${projectB}/stages/${stageB!.id}/resources`,
        { name: 'stolen', componentId: A.componentId, configurations: [] },
      ],
      ["an environment on A's AWS account", 'POST', `/ms-engine/projects/${projectB}/stages`, awsStage({ name: 'stolen2' })],
      [
        "a saving schedule on A's AWS account",
        'POST',
        `/ms-cloud-cost-optimizer/projects/${projectB}/schedules`,
        bodies['PUT /ms-cloud-cost-optimizer/projects/{projectId}/schedules/{scheduleId}']!() as object,
      ],
      [
        "a cost report of A's AWS account",
        'POST',
        `/ms-cloud-cost-optimizer/projects/${projectB}/reports`,
        bodies['PUT /ms-cloud-cost-optimizer/projects/{projectId}/reports/{reportId}']!() as object,
      ],
    ];
    const wrong: string[] = [];
    for (const [what, method, url, payload] of attempts) {
      const res = await asB(method, url, payload);
      if (res.statusCode < 400 || res.statusCode >= 500) wrong.push(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      for (const secret of Object.values(SECRET)) if (res.body.includes(secret)) wrong.push(`${what}: answered a secret of A`);
    }
    // a service naming A's registry is B's own reference: it resolves in B's registries (none), never A's credentials
    const service = await asB('POST', `/ms-kube/projects/${projectB}/microservices`, {
      name: 'stolen',
      description: 'B',
      registry: A.registryName,
      imageRepository: 'alpha/app',
    });
    expect(service.statusCode, service.body).toBe(201);
    const versions = await t.app.inject({
      method: 'GET',
      url: `/ms-kube/projects/${projectB}/microservices/stolen/versions`,
      headers: bearer(outsider.idToken),
    });
    expect(versions.statusCode, versions.body).toBe(404);
    expect(versions.json().message).toMatch(/registry/i);
    expect(wrong).toEqual([]);
  });

  it("a socket of B's member joins none of A's rooms: A's project, A's build log or deployment log, also under B's project id", async () => {
    const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const connect = (idToken: string) =>
      ioClient(url, { path: REALTIME_PATH, query: { Authorization: idToken }, transports: ['websocket'], reconnection: false });
    const spy = connect(outsider.idToken);
    const heard: unknown[] = [];
    spy.onAny((event, payload) => heard.push({ event, payload }));
    const build = { pipelineId: A.pipelineId, buildId: A.buildId, step: A.step, type: 'pipeline' };
    const deployment = { stageId: A.stageId, deploymentId: A.deploymentId, typeOfLogs: 'terraform' };
    const answers = {
      project: await spy.emitWithAck('project:join', A.projectId),
      buildInA: await spy.emitWithAck('logs:subscribe', { projectId: A.projectId, ...build }),
      buildInB: await spy.emitWithAck('logs:subscribe', { projectId: projectB, ...build }),
      buildByNumberInB: await spy.emitWithAck('logs:subscribe', { projectId: projectB, ...build, buildId: '1' }),
      deploymentInA: await spy.emitWithAck('deployment-logs:subscribe', { projectId: A.projectId, ...deployment }),
      deploymentInB: await spy.emitWithAck('deployment-logs:subscribe', { projectId: projectB, ...deployment }),
    };
    for (const [what, answer] of Object.entries(answers)) expect(answer, what).toMatchObject({ ok: false });
    // what A's rooms carry now is not heard (A's own member hears it: the rooms are real)
    const member = connect(roles.read.idToken);
    const memberHeard: string[] = [];
    member.on('logs', (c: { text: string }) => memberHeard.push(c.text));
    expect(await member.emitWithAck('logs:subscribe', { projectId: A.projectId, ...build })).toEqual({ ok: true });
    expect(await member.emitWithAck('project:join', A.projectId)).toEqual({ ok: true });
    t.app.services.realtime.toProject(A.projectId!, 'build:update', { pipelineId: A.pipelineId, buildId: A.buildId, status: 'RUNNING' });
    await until(
      async () => memberHeard,
      (h) => h.includes('alpha log line'),
      "the member to hear A's log",
      10_000,
      50,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(heard).toEqual([]);
    spy.close();
    member.close();
  });
});
