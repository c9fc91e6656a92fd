import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { eq } from 'drizzle-orm';
import { startGitStandin, type GitStandin } from '@gantry/test-support/git-standin/index';
import { registerUser, bearer, createProject, addMember, pipelineRow } from '../../../test/helpers.js';
import { createGitAccountsTestApp } from './git-accounts.test-app.js';
import { gitAccounts as gitAccountsTable } from './git-accounts.tables.js';
import { pipelines as pipelinesTable } from '../pipelines/pipelines.tables.js';

let standin: GitStandin;
let t: Awaited<ReturnType<typeof createGitAccountsTestApp>>;
let owner: { idToken: string; profile: { id: string } };
let outsider: { idToken: string };
let projectId: string;
let otherProjectId: string;
const members: Record<'write' | 'read', { idToken: string }> = {} as any;

beforeAll(async () => {
  standin = await startGitStandin();
  await standin.createRepo('acme/app', { 'gantry.yaml': 'steps: []\n' });
  await standin.commit('acme/app', { 'x.txt': 'x' }, 'Branch', 'develop');
  // Bitbucket is left unconfigured on purpose.
  const { BITBUCKET_CLIENT_ID: _id, BITBUCKET_CLIENT_SECRET: _secret, ...env } = standin.env;
  t = await createGitAccountsTestApp(env);
  owner = await registerUser(t, 'owner@example.com');
  outsider = await registerUser(t, 'outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Alpha');
  otherProjectId = await createProject(t, outsider.idToken, 'Theirs');
  for (const p of ['write', 'read'] as const) members[p] = await addMember(t, owner.idToken, projectId, `${p}@example.com`, p);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await standin?.close();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, idToken?: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-ap${url}`, headers: idToken ? bearer(idToken) : {}, payload });
const connect = (idToken: string, type: 'github' | 'gitlab' | 'bitbucket', code: string, project = projectId) =>
  call('POST', `/projects/${project}/git-accounts`, idToken, { code, type });

describe('GET /git-providers', () => {
  it('answers the authorize page of each configured provider, null for the others', async () => {
    const res = await call('GET', '/git-providers', members.read.idToken);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.bitbucket).toBeNull();
    const gh = new URL(body.github.authorizeUrl);
    expect(gh.toString()).toContain(`${standin.url}/github/login/oauth/authorize?`);
    expect(Object.fromEntries(gh.searchParams)).toEqual({
      client_id: standin.github.clientId,
      scope: 'repo',
      state: 'redirect:portal',
      redirect_uri: 'http://gantry.test/settings?tab=git&type=github',
    });
    const gl = new URL(body.gitlab.authorizeUrl);
    expect(gl.searchParams.get('scope')).toBe('read_repository api read_user');
    expect(gl.searchParams.get('redirect_uri')).toBe('http://gantry.test/settings?tab=git&type=gitlab');
  });

  it('needs a session', async () => {
    expect((await call('GET', '/git-providers')).statusCode).toBe(401);
  });
});

describe('connecting accounts', () => {
  let gitAccountId: string;

  it('connects with a code (write may), stores the tokens sealed and lists the account without them', async () => {
    const code = standin.issueCode('github', { redirectUri: 'http://gantry.test/settings?tab=git&type=github' });
    const res = await connect(members.write.idToken, 'github', code);
    expect(res.statusCode).toBe(201);
    gitAccountId = res.json().gitAccountId;
    const list = await call('GET', `/projects/${projectId}/git-accounts`, members.read.idToken);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ gitAccounts: [{ gitAccountId, accountName: 'dev', type: 'github' }] });
    const [row] = await t.database.db.select().from(gitAccountsTable).where(eq(gitAccountsTable.id, gitAccountId));
    const issued = standin.issuedTokens.filter((x) => x.provider === 'github').at(-1)!.token;
    expect(row!.accessTokenSealed).not.toContain(issued);
    expect(t.app.services.secrets.open(row!.accessTokenSealed)).toBe(issued);
    expect(list.body).not.toContain(issued);
  });

  it('answers 409 when the same provider account is already connected to the project', async () => {
    const res = await connect(owner.idToken, 'github', standin.issueCode('github'));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: 'Account already exists', code: 'Conflict' });
  });

  it('connects another account of the same provider, and the same account to another project', async () => {
    expect((await connect(owner.idToken, 'github', standin.issueCode('github', { login: 'second' }))).statusCode).toBe(201);
    expect((await connect(outsider.idToken, 'github', standin.issueCode('github'), otherProjectId)).statusCode).toBe(201);
    const names = (await call('GET', `/projects/${projectId}/git-accounts`, owner.idToken)).json().gitAccounts.map((a: any) => a.accountName);
    expect(names).toEqual(['dev', 'second']);
  });

  it('connects a GitLab account (refresh token and expiry kept sealed)', async () => {
    const res = await connect(owner.idToken, 'gitlab', standin.issueCode('gitlab', { redirectUri: 'http://gantry.test/settings?tab=git&type=gitlab' }));
    expect(res.statusCode).toBe(201);
    const [row] = await t.database.db.select().from(gitAccountsTable).where(eq(gitAccountsTable.id, res.json().gitAccountId));
    expect(row!.refreshTokenSealed).toMatch(/^v1\./);
    expect(row!.tokenExpiresAt).toBeInstanceOf(Date);
  });

  it('validates the body, the code and the provider', async () => {
    const missing = await call('POST', `/projects/${projectId}/git-accounts`, owner.idToken, { type: 'github' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toHaveProperty('code');
    expect((await call('POST', `/projects/${projectId}/git-accounts`, owner.idToken, { code: 'x', type: 'svn' })).statusCode).toBe(400);
    const bad = await connect(owner.idToken, 'github', 'not-a-code');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/did not accept the authorization code/);
    const off = await connect(owner.idToken, 'bitbucket', 'any');
    expect(off.statusCode).toBe(400);
    expect(off.json().message).toBe('Bitbucket accounts are not enabled on this Gantry instance');
  });

  it("refuses read members (403), other projects' members (404) and callers without a session (401)", async () => {
    expect((await connect(members.read.idToken, 'github', standin.issueCode('github', { login: 'r' }))).statusCode).toBe(403);
    expect((await connect(outsider.idToken, 'github', standin.issueCode('github', { login: 'o' }))).statusCode).toBe(404);
    expect((await call('POST', `/projects/${projectId}/git-accounts`, undefined, { code: 'x', type: 'github' })).statusCode).toBe(401);
    expect((await call('GET', `/projects/${projectId}/git-accounts`, outsider.idToken)).statusCode).toBe(404);
  });

  it('lists repositories and branches to any member, 404 to others and for unknown accounts or repositories', async () => {
    const repos = await call('GET', `/projects/${projectId}/git-accounts/${gitAccountId}/repositories`, members.read.idToken);
    expect(repos.statusCode).toBe(200);
    expect(repos.json()).toEqual({
      repositories: [{ id: expect.any(String), fullName: 'acme/app', url: `${standin.url}/github/acme/app`, defaultBranch: 'main' }],
    });
    const url = encodeURIComponent(`${standin.url}/github/acme/app.git`);
    const branches = await call('GET', `/projects/${projectId}/git-accounts/${gitAccountId}/branches?repositoryUrl=${url}`, members.read.idToken);
    expect(branches.statusCode).toBe(200);
    expect(branches.json()).toEqual({ branches: ['develop', 'main'] });
    expect((await call('GET', `/projects/${projectId}/git-accounts/${gitAccountId}/branches`, owner.idToken)).statusCode).toBe(400);
    expect(
      (
        await call(
          'GET',
          `/projects/${projectId}/git-accounts/${gitAccountId}/branches?repositoryUrl=${encodeURIComponent('https://example.com/x/y')}`,
          owner.idToken,
        )
      ).statusCode,
    ).toBe(404);
    expect((await call('GET', `/projects/${projectId}/git-accounts/${gitAccountId}/repositories`, outsider.idToken)).statusCode).toBe(404);
    expect((await call('GET', `/projects/${otherProjectId}/git-accounts/${gitAccountId}/repositories`, outsider.idToken)).statusCode).toBe(404);
    expect((await call('GET', `/projects/${projectId}/git-accounts/${crypto.randomUUID()}/repositories`, owner.idToken)).statusCode).toBe(404);
    expect((await call('GET', `/projects/${projectId}/git-accounts/not-a-uuid/repositories`, owner.idToken)).statusCode).toBe(400);
  });

  it('removes an account: 403 for read, 404 for others, 409 while a pipeline uses it', async () => {
    const del = (idToken: string, id = gitAccountId, project = projectId) => call('DELETE', `/projects/${project}/git-accounts/${id}`, idToken);
    expect((await del(members.read.idToken)).statusCode).toBe(403);
    expect((await del(outsider.idToken)).statusCode).toBe(404);
    expect((await del(outsider.idToken, gitAccountId, otherProjectId)).statusCode).toBe(404);
    expect((await del(owner.idToken, crypto.randomUUID())).statusCode).toBe(404);

    const [pipeline] = await t.database.db
      .insert(pipelinesTable)
      .values(pipelineRow(projectId, gitAccountId, { name: 'web', repositoryUrl: `${standin.url}/github/acme/app` }))
      .returning();
    const inUse = await del(members.write.idToken);
    expect(inUse.statusCode, inUse.body).toBe(409);
    await t.database.db.delete(pipelinesTable).where(eq(pipelinesTable.id, pipeline!.id));

    const ok = await del(members.write.idToken);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true });
    const left = (await call('GET', `/projects/${projectId}/git-accounts`, owner.idToken)).json().gitAccounts;
    expect(left.map((a: any) => a.gitAccountId)).not.toContain(gitAccountId);
  });
});
