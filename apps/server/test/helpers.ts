import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import crypto from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '../src/config.js';
import { buildApp, type BuildAppOptions } from '../src/app.js';
import { openDatabase, type Database } from '../src/platform/db.js';
import type { CloudVerifier } from '../src/integrations/cloud-verify/index.js';
import { gitAccounts } from '../src/modules/git-accounts/git-accounts.tables.js';
import type { pipelines } from '../src/modules/pipelines/pipelines.tables.js';

/**
 * A fresh database for one test file: PGlite in memory, or — when TEST_DATABASE_URL points at a
 * PostgreSQL server — a new database created on it (the suite runs on both, DESIGN §7).
 */
export async function openTestDatabase(): Promise<Database & { drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({});
    return { ...database, drop: async () => database.close() };
  }
  const name = `gantry_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    ...database,
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  /** Stops the app as a server stop does, keeping the test database open to look at what it left. */
  stopApp(): Promise<void>;
  close(): Promise<void>;
  /** The newest mail to an address (from the outbox, which records every mail). */
  lastMail(to: string): Promise<{ subject: string; text: string } | undefined>;
}

/** The settings every test app runs with (the secret key shared: the apps of one test may share a database). */
const TEST_SETTINGS = {
  GANTRY_LOG_LEVEL: 'silent',
  GANTRY_RATE_LIMIT: 'false',
  GANTRY_SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
  PUBLIC_URL: 'http://gantry.test',
};

/**
 * `gantry serve` and `gantry worker` as a test runs them: on one test database, with the test settings and each
 * role's `env`, the api process ready first. `close` stops the worker, then the api, and drops the database.
 */
export async function startRoles(
  envOf: (role: 'api' | 'worker') => Record<string, string> & { GANTRY_DATA_DIR: string },
  opts: Omit<BuildAppOptions, 'database'> = {},
) {
  const database = await openTestDatabase();
  const start = async (role: 'api' | 'worker') => {
    const app = await buildApp(loadConfig({ GANTRY_ROLE: role, ...TEST_SETTINGS, ...envOf(role) }), { ...opts, database });
    await app.ready();
    return app;
  };
  const api = await start('api');
  const worker = await start('worker');
  return {
    database,
    api,
    worker,
    async close() {
      await worker.close();
      await api.close();
      await database.drop();
    },
  };
}

/** Signs a user up on an api process whose mails a worker delivers (to the outbox, without SMTP), verifies and logs in; answers the id token. */
export async function signUpOnApi(api: FastifyInstance, email: string): Promise<string> {
  await api.inject({
    method: 'POST',
    url: '/ms-usermanagement/auth/sign-up',
    payload: { username: email, password: PASSWORD, firstName: 'Wo', lastName: 'Rker' },
  });
  const mail = await until(
    async () => (await api.services.mailer.outbox(50)).find((m) => m.to === email),
    (m) => m !== undefined,
    'the verification mail',
    30_000,
  );
  const code = codeFromMail(mail!.text, '/account/verify/');
  await api.inject({ method: 'POST', url: '/ms-usermanagement/auth/activate', payload: { username: email, code } });
  return (await api.inject({ method: 'POST', url: '/ms-usermanagement/auth/login', payload: { username: email, password: PASSWORD } })).json()
    .idToken as string;
}

/**
 * A user signed up on an api process (signUpOnApi), their project, and a pipeline of it on a new repository of the
 * local git holding `spec` as its gantry.yaml, built by hand: the project's API path, its id, the pipeline's, the token.
 */
export async function pipelineOnApi(
  api: FastifyInstance,
  git: { createRepo(name: string, files: Record<string, string>): { url: string } },
  o: { email: string; name: string; spec: string },
) {
  const idToken = await signUpOnApi(api, o.email);
  const projectId = (
    await api.inject({
      method: 'POST',
      url: '/ms-project/projects',
      headers: bearer(idToken),
      payload: { name: o.name, description: o.name, paymentPlanId: 'STARTER' },
    })
  ).json().id as string;
  const gitAccountId = (await insertGitAccount({ app: api } as TestApp, projectId)).id;
  const repositoryUrl = git.createRepo(`acme/${o.name.toLowerCase()}`, { 'gantry.yaml': o.spec }).url;
  const p = `/ms-ap/projects/${projectId}`;
  const created = await api.inject({
    method: 'POST',
    url: `${p}/pipelines`,
    headers: bearer(idToken),
    payload: { name: o.name.toLowerCase(), gitAccountId, repositoryUrl, branchFilter: 'main', automatedTrigger: false },
  });
  return { p, projectId, pipelineId: created.json().pipelineId as string, idToken };
}

export async function createTestApp(
  env: Record<string, string> = {},
  opts: Omit<BuildAppOptions, 'database'> & { beforeReady?: (app: FastifyInstance, config: Config) => Promise<void> } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-test-'));
  const database = await openTestDatabase();
  const config = loadConfig({ GANTRY_DATA_DIR: dataDir, ...TEST_SETTINGS, ...env });
  const { beforeReady, ...appOptions } = opts;
  const app = await buildApp(config, { ...appOptions, database });
  await beforeReady?.(app, config);
  await app.ready();
  let stopped: Promise<void> | undefined;
  const stopApp = () => (stopped ??= app.close());
  return {
    app,
    stopApp,
    async close() {
      await stopApp();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async lastMail(to) {
      const mails = await app.services.mailer.outbox(500);
      return mails.find((m) => m.to === to.toLowerCase());
    },
  };
}

/** The last path segment of the first link in a mail that contains `marker`. */
export function codeFromMail(text: string, marker: string): string {
  const link = text.match(/https?:\/\/\S+/g)?.find((l) => l.includes(marker));
  if (!link) throw new Error(`no ${marker} link in mail:\n${text}`);
  return decodeURIComponent(link.split('/').pop()!);
}

export const PASSWORD = 'Secret123';

/** Signs a user up, verifies the e-mail through the mailed code, logs in; answers the tokens. */
export async function registerUser(t: TestApp, email: string, names = { firstName: 'Test', lastName: 'User' }) {
  const res = await t.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/sign-up', payload: { username: email, password: PASSWORD, ...names } });
  if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.body}`);
  const mail = await t.lastMail(email);
  const code = codeFromMail(mail!.text, '/account/verify/');
  const act = await t.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/activate', payload: { username: email, code } });
  if (act.statusCode !== 200) throw new Error(`activate failed: ${act.body}`);
  return login(t, email, PASSWORD);
}

export async function login(t: TestApp, email: string, password: string) {
  const res = await t.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/login', payload: { username: email, password } });
  const body = res.json();
  if (!body.done) throw new Error(`login failed: ${res.body}`);
  return body as { idToken: string; refreshToken: string; expiresIn: number; profile: { id: string; email: string } };
}

export const bearer = (idToken: string) => ({ authorization: `Bearer ${idToken}` });

export async function createProject(t: TestApp, idToken: string, name = 'Alpha') {
  const res = await t.app.inject({
    method: 'POST',
    url: '/ms-project/projects',
    headers: bearer(idToken),
    payload: { name, description: `${name} project`, paymentPlanId: 'STARTER' },
  });
  if (res.statusCode !== 201) throw new Error(`create project failed: ${res.body}`);
  return res.json().id as string;
}

/** Invites a user with a permission, and has them complete registration; answers their tokens. */
/** Puts a project on a paid plan through a promo code its owner redeems (plan features: schedules, insights…). */
export async function grantPlan(t: TestApp, ownerToken: string, projectId: string, planId = 'PRO') {
  const [code] = await t.app.services.billing.createPromoCodes({ kind: 'PROMO', planId, count: 1 });
  const redeemed = await t.app.inject({
    method: 'POST',
    url: `/ms-project/projects/${projectId}/promo-code`,
    headers: bearer(ownerToken),
    payload: { redeemCode: code },
  });
  if (redeemed.statusCode !== 200) throw new Error(`redeeming a promo code answered ${redeemed.statusCode}: ${redeemed.body}`);
}

/** Connects an AWS account to a project (the test app's cloud verifier decides whether the role is accepted). */
export async function connectAwsAccount(t: TestApp, ownerToken: string, projectId: string, accountId: string, o: { name?: string; externalId?: string } = {}) {
  const added = await t.app.inject({
    method: 'POST',
    url: `/ms-aws/projects/${projectId}/aws-accounts`,
    headers: bearer(ownerToken),
    payload: { accountName: o.name ?? 'prod', iamRole: `arn:aws:iam::${accountId}:role/gantry`, externalId: o.externalId ?? 'ext-1' },
  });
  if (added.statusCode >= 300) throw new Error(`connecting AWS account ${accountId} answered ${added.statusCode}: ${added.body}`);
}

export async function addMember(t: TestApp, ownerToken: string, projectId: string, email: string, permission: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/ms-project/projects/${projectId}/users`,
    headers: bearer(ownerToken),
    payload: { email, permission },
  });
  if (res.statusCode !== 201) throw new Error(`invite failed: ${res.body}`);
  const mail = await t.lastMail(email);
  const token = codeFromMail(mail!.text, '/account/set-password/');
  const set = await t.app.inject({
    method: 'POST',
    url: '/ms-usermanagement/auth/set-password',
    payload: { username: email, sessionToken: token, newPassword: PASSWORD, firstName: 'Mem', lastName: 'Ber' },
  });
  if (set.statusCode !== 200) throw new Error(`set-password failed: ${set.body}`);
  return set.json() as { idToken: string; refreshToken: string; profile: { id: string } };
}

type Member = Awaited<ReturnType<typeof addMember>>;

/**
 * Three members of `projectId` (added with `prefix` in their e-mails) lose their access, each as one of the ways that
 * disconnects a user (Realtime.disconnectUser): `removed` from the project by its owner, `leaving` logs out, `changing`
 * sets a new password. `open` is called with the three once they are members, before that; what it gives is answered.
 */
export async function endMembersAccess<T>(
  t: TestApp,
  ownerToken: string,
  projectId: string,
  prefix: string,
  open: (m: Record<'removed' | 'leaving' | 'changing', Member>) => Promise<T>,
) {
  const m = {
    removed: await addMember(t, ownerToken, projectId, `${prefix}-removed@example.com`, 'read'),
    leaving: await addMember(t, ownerToken, projectId, `${prefix}-leaving@example.com`, 'read'),
    changing: await addMember(t, ownerToken, projectId, `${prefix}-changing@example.com`, 'read'),
  };
  const opened = await open(m);
  const gone = await t.app.inject({ method: 'DELETE', url: `/ms-project/projects/${projectId}/users/${m.removed.profile.id}`, headers: bearer(ownerToken) });
  if (gone.statusCode !== 200) throw new Error(`removing a member answered ${gone.statusCode}: ${gone.body}`);
  await t.app.inject({ method: 'POST', url: '/ms-usermanagement/auth/logout', payload: { refreshToken: m.leaving.refreshToken } });
  const changed = await t.app.inject({
    method: 'POST',
    url: '/ms-usermanagement/users/me/password',
    headers: bearer(m.changing.idToken),
    payload: { oldPassword: PASSWORD, newPassword: 'Another123' },
  });
  if (changed.statusCode !== 200) throw new Error(`a new password answered ${changed.statusCode}: ${changed.body}`);
  return { members: m, opened };
}

/** Reads until `done` says so (a job finished, a status settled); throws with the last value after `ms`. */
export async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, ms = 90_000, everyMs = 150): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A cloud verifier that accepts every account (STS, Azure, GCP answers in their shapes), for tests that need one connected. */
export const acceptingCloudVerifier = {
  aws: { assumeRole: async () => ({ accessKeyId: 'AKIA', secretAccessKey: 's', sessionToken: 't' }) },
  azure: { getToken: async () => ({ token: 'x' }) },
  gcp: { impersonate: async () => ({ token: 'x' }) },
} as unknown as CloudVerifier;

/** A GitHub account row with a sealed token, for tests whose repositories are local (no provider to connect through). */
export async function insertGitAccount(t: TestApp, projectId: string) {
  const [row] = await t.app.services.database.db
    .insert(gitAccounts)
    .values({ projectId, type: 'github', accountName: 'acme', externalId: '1', accessTokenSealed: t.app.services.secrets.seal('local-token') })
    .returning();
  return row!;
}

/** The AWS account of the test environments (connected with connectAwsAccount; acceptingCloudVerifier takes it). */
export const TEST_AWS_ACCOUNT = '123456789012';

/** An environment's body: terraform on TEST_AWS_ACCOUNT in eu-central-1, named `staging`, with `patch` over it. */
export const awsStage = (patch: object = {}) => ({
  name: 'staging',
  description: 'Staging',
  cloudProvider: 'aws',
  infrastructureAsCodeTool: 'terraform',
  awsAccountId: TEST_AWS_ACCOUNT,
  awsRegion: 'eu-central-1',
  ...patch,
});

/** A project of `ownerToken` with TEST_AWS_ACCOUNT connected, on `plan` when given (quick deploy and insights need PRO). */
export async function awsProject(t: TestApp, ownerToken: string, name: string, o: { plan?: string } = {}) {
  const projectId = await createProject(t, ownerToken, name);
  if (o.plan) await grantPlan(t, ownerToken, projectId, o.plan);
  await connectAwsAccount(t, ownerToken, projectId, TEST_AWS_ACCOUNT);
  return projectId;
}

/** Creates an environment through the API (body: awsStage() with `patch`); answers its id. */
export async function createStage(t: TestApp, idToken: string, projectId: string, patch: object = {}) {
  const res = await t.app.inject({ method: 'POST', url: `/ms-engine/projects/${projectId}/stages`, headers: bearer(idToken), payload: awsStage(patch) });
  if (res.statusCode !== 201) throw new Error(`creating an environment answered ${res.statusCode}: ${res.body}`);
  return res.json().stageId as string;
}

/** The id of a component the project lists by name (a vendor one, e.g. 'Static site bucket'). */
export async function componentId(t: TestApp, idToken: string, projectId: string, name: string) {
  const res = await t.app.inject({ method: 'GET', url: `/ms-engine/projects/${projectId}/components`, headers: bearer(idToken) });
  const found = (res.json().components as { id: string; name: string }[]).find((c) => c.name === name);
  if (!found) throw new Error(`no component ${name} in project ${projectId}: ${res.body}`);
  return found.id;
}

/** A pipeline row on acme/app (main, triggered by hand) with `patch` over it, for tests that insert one instead of connecting a provider. */
export const pipelineRow = (projectId: string, gitAccountId: string, patch: Partial<typeof pipelines.$inferInsert> = {}) =>
  ({
    projectId,
    name: 'app',
    gitAccountId,
    repositoryUrl: 'https://example.com/acme/app',
    repositoryFullName: 'acme/app',
    branchFilter: 'main',
    automatedTrigger: false,
    workDir: '/',
    modifiedFiles: '',
    environmentVariables: [],
    ...patch,
  }) satisfies typeof pipelines.$inferInsert;
