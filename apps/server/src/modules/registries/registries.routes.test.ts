import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { GANTRY_IMAGE_LABELS, SENSITIVE_PLACEHOLDER, registryMessages } from '@gantry/contracts';
import { startRegistry, type LocalRegistry } from '@gantry/test-support';
import { registerUser, bearer, createProject, addMember } from '../../../test/helpers.js';
import { expectDocumented, expectEveryProjectRouteListed, expectProjectGuards, type GuardedRoute } from '../../../test/route-guards.js';
import { createRegistriesTestApp } from './registries.test-app.js';
import { dockerRegistries } from './registries.tables.js';
import type { RegistriesPort, RegistryVersionsPort } from './registries.port.js';

let t: Awaited<ReturnType<typeof createRegistriesTestApp>>;
let reg: LocalRegistry;
let flaky: http.Server;
let flakyUrl: string;
/** The Authorization headers the flaky registry was sent. */
const flakyAuth: string[] = [];
let owner: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let otherProjectId: string;
const members: Record<'write' | 'read', { idToken: string }> = {} as never;
const digests: Record<string, string> = {};

beforeAll(async () => {
  reg = await startRegistry({ auth: 'htpasswd' });
  const label = (sha: string, message: string) => ({
    [GANTRY_IMAGE_LABELS.revision]: sha,
    [GANTRY_IMAGE_LABELS.message]: message,
    [GANTRY_IMAGE_LABELS.author]: 'Ada',
    [GANTRY_IMAGE_LABELS.avatar]: 'https://avatars.example/ada.png',
  });
  digests.v1 = await reg.pushImage('team/api', 'v1', { created: '2026-01-01T00:00:00Z', labels: label('1111111aaaa', 'first') });
  digests.v2 = await reg.pushImage('team/api', 'v2', { created: '2026-02-01T00:00:00Z', labels: label('2222222bbbb', 'second') });
  digests.v3 = await reg.pushImage('team/api', 'v3', { created: '2026-03-01T00:00:00Z', format: 'index' });
  digests.latest = await reg.pushImage('team/api', 'latest', { created: '2025-12-01T00:00:00Z' });
  await reg.pushImage('team/web', 'v1');
  // a registry that accepts anyone but fails its catalog (500) and its tag lists (503)
  flaky = http.createServer((req, res) => {
    if (req.headers.authorization) flakyAuth.push(req.headers.authorization);
    const status = req.url === '/v2/' ? 200 : req.url?.startsWith('/v2/_catalog') ? 500 : 503;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        status === 200
          ? {}
          : { errors: [{ code: status === 500 ? 'UNKNOWN' : 'UNAVAILABLE', message: status === 500 ? 'storage driver failed' : 'try later' }] },
      ),
    );
  });
  await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
  flakyUrl = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;

  t = await createRegistriesTestApp();
  owner = await registerUser(t, 'owner@example.com');
  outsider = await registerUser(t, 'outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Alpha');
  otherProjectId = await createProject(t, outsider.idToken, 'Theirs');
  for (const p of ['write', 'read'] as const) members[p] = await addMember(t, owner.idToken, projectId, `${p}@example.com`, p);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await reg?.stop();
  await new Promise<void>((resolve) => (flaky ? flaky.close(() => resolve()) : resolve()));
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, idToken?: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-kube${url}`, headers: idToken ? bearer(idToken) : {}, payload });
const base = (p = projectId) => `/projects/${p}/docker-registries`;
const v2Body = (name: string, o: { url?: string; password?: string; isDefault?: boolean } = {}) => ({
  name,
  isDefault: o.isDefault ?? false,
  provider: 'DockerRegistryV2',
  credentials: [
    { key: 'registry_url', value: o.url ?? `${reg.url}/team` },
    { key: 'docker_username', value: `  ${reg.username} ` },
    { key: 'docker_password', value: o.password ?? reg.password, sensitive: true },
  ],
});
const rowOf = async (name: string) => (await t.database.db.select().from(dockerRegistries).where(eq(dockerRegistries.name, name)))[0]!;

describe('Docker registries CRUD', () => {
  it('adds a registry after the registry accepted the credentials (write may); the password is sealed and never answered', async () => {
    const res = await call('POST', base(), members.write.idToken, v2Body('main'));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      registryName: 'main',
      isDefault: false,
      provider: 'DockerRegistryV2',
      createdAt: expect.any(String),
      credentials: [
        { key: 'registry_url', value: `${reg.url}/team`, sensitive: false },
        { key: 'docker_username', value: reg.username, sensitive: false },
        { key: 'docker_password', value: SENSITIVE_PLACEHOLDER, sensitive: true },
      ],
    });
    const row = await rowOf('main');
    expect(JSON.stringify(row)).not.toContain(reg.password);
    expect(JSON.parse(t.app.services.secrets.open(row.secretsSealed))).toEqual({ docker_password: reg.password });
    const list = await call('GET', base(), members.read.idToken);
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(reg.password);
  });

  it("refuses credentials the registry refuses (400, the registry's reason) and saves nothing", async () => {
    const res = await call('POST', base(), owner.idToken, v2Body('bad', { password: 'wrong' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'RegistryVerifyFailed',
      message: expect.stringMatching(/^Docker Registry v2 refused the credentials: /),
      reason: expect.any(String),
    });
    expect((await call('GET', `${base()}/bad`, owner.idToken)).statusCode).toBe(404);
  });

  it('refuses a registry on a loopback address under the default OUTBOUND_NETWORK (lan)', async () => {
    const lan = await createRegistriesTestApp({ env: { OUTBOUND_NETWORK: 'lan' } });
    try {
      const user = await registerUser(lan, 'lan@example.com');
      const project = await createProject(lan, user.idToken, 'Lan');
      const res = await lan.app.inject({
        method: 'POST',
        url: `/ms-kube/projects/${project}/docker-registries`,
        headers: bearer(user.idToken),
        payload: v2Body('local'),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/is a loopback or link-local address, which Gantry does not reach for a URL a user gave \(OUTBOUND_NETWORK=lan\)/);
    } finally {
      await lan.close();
    }
  });

  it('answers 409 for a name already used in the project, and allows it in another project', async () => {
    const dup = await call('POST', base(), owner.idToken, v2Body('main'));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(registryMessages.exists('main'));
    expect((await call('POST', base(otherProjectId), outsider.idToken, v2Body('main'))).statusCode).toBe(201);
  });

  it.each([
    [{ name: 'Bad_Name' }, 'name', registryMessages.nameRule],
    [{ name: '-dash' }, 'name', registryMessages.nameRule],
    [
      {
        credentials: [
          { key: 'registry_url', value: 'not a url' },
          { key: 'docker_username', value: 'u' },
          { key: 'docker_password', value: 'p' },
        ],
      },
      'registry_url',
      registryMessages.registryUrl,
    ],
    [
      {
        credentials: [
          { key: 'registry_url', value: 'r.example.com' },
          { key: 'docker_username', value: 'u' },
        ],
      },
      'docker_password',
      registryMessages.required('Password or token'),
    ],
    [
      {
        provider: 'Ecr',
        credentials: [
          { key: 'aws_account_id', value: '1234' },
          { key: 'aws_region', value: 'eu-west-1' },
          { key: 'aws_access_key_id', value: 'A' },
          { key: 'aws_secret_access_key', value: 'S' },
        ],
      },
      'aws_account_id',
      registryMessages.awsAccountId,
    ],
    [
      {
        provider: 'Ecr',
        credentials: [
          { key: 'aws_account_id', value: '123456789012' },
          { key: 'aws_region', value: 'mars-1' },
          { key: 'aws_access_key_id', value: 'A' },
          { key: 'aws_secret_access_key', value: 'S' },
        ],
      },
      'aws_region',
      registryMessages.awsRegion,
    ],
    [
      {
        provider: 'GitlabContainerRegistry',
        credentials: [
          { key: 'registry_url', value: 'registry.gitlab.com' },
          { key: 'gitlab_hierarchy_type', value: 'users' },
          { key: 'gitlab_id', value: '1' },
          { key: 'docker_username', value: 'u' },
          { key: 'docker_password', value: 'p' },
        ],
      },
      'gitlab_hierarchy_type',
      registryMessages.hierarchyType,
    ],
    [
      {
        provider: 'GitlabContainerRegistry',
        credentials: [
          { key: 'registry_url', value: 'registry.gitlab.com/some/path' },
          { key: 'gitlab_hierarchy_type', value: 'groups' },
          { key: 'gitlab_id', value: '1' },
          { key: 'docker_username', value: 'u' },
          { key: 'docker_password', value: 'p' },
        ],
      },
      'registry_url',
      registryMessages.registryUrl,
    ],
    [{ provider: 'Quay' }, 'provider', registryMessages.unsupportedProvider],
  ])('validates %j → fields.%s', async (patch, field, message) => {
    const res = await call('POST', base(), owner.idToken, { ...v2Body('valid-name'), ...patch });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toContain(message);
    if (field === 'provider') expect(res.json().message).toBe(registryMessages.unsupportedProvider);
  });

  it('keeps one default per project, listed first; making another default clears the first', async () => {
    expect((await call('POST', base(), owner.idToken, v2Body('zz-default', { isDefault: true }))).statusCode).toBe(201);
    expect((await call('POST', base(), owner.idToken, v2Body('aa-plain'))).statusCode).toBe(201);
    const names = async () =>
      (await call('GET', base(), owner.idToken))
        .json()
        .dockerRegistries.map((r: { registryName: string; isDefault: boolean }) => `${r.registryName}${r.isDefault ? '*' : ''}`);
    expect(await names()).toEqual(['zz-default*', 'aa-plain', 'main']);
    const res = await call('PUT', `${base()}/main`, owner.idToken, { isDefault: true, credentials: v2Body('main').credentials });
    expect(res.statusCode).toBe(200);
    expect(await names()).toEqual(['main*', 'aa-plain', 'zz-default']);
    // the other project's registries are untouched
    expect((await call('GET', base(otherProjectId), outsider.idToken)).json().dockerRegistries).toHaveLength(1);
  });

  it('reads one registry; 404 for an unknown name', async () => {
    const res = await call('GET', `${base()}/main`, members.read.idToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ registryName: 'main', isDefault: true, provider: 'DockerRegistryV2' });
    const missing = await call('GET', `${base()}/nope`, owner.idToken);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(registryMessages.notFound);
  });

  it('updates: the password sent as the placeholder, empty or not at all keeps the stored one (verified again)', async () => {
    const creds = (password?: string) => [
      { key: 'registry_url', value: reg.url },
      { key: 'docker_username', value: reg.username },
      ...(password === undefined ? [] : [{ key: 'docker_password', value: password, sensitive: true }]),
    ];
    for (const password of [SENSITIVE_PLACEHOLDER, '', undefined]) {
      const res = await call('PUT', `${base()}/aa-plain`, owner.idToken, { isDefault: false, credentials: creds(password) });
      expect(res.statusCode).toBe(200);
      expect(res.json().credentials[0]).toEqual({ key: 'registry_url', value: reg.url, sensitive: false });
    }
    expect(JSON.parse(t.app.services.secrets.open((await rowOf('aa-plain')).secretsSealed))).toEqual({ docker_password: reg.password });
    const refused = await call('PUT', `${base()}/aa-plain`, owner.idToken, { isDefault: false, credentials: creds('wrong') });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().code).toBe('RegistryVerifyFailed');
    expect((await rowOf('aa-plain')).credentials.registry_url).toBe(reg.url);
  });

  it('sends a kept password only to the host it was given for: another registry_url host needs it again', async () => {
    const creds = (url: string, password?: string) => [
      { key: 'registry_url', value: url },
      { key: 'docker_username', value: reg.username },
      ...(password === undefined ? [] : [{ key: 'docker_password', value: password, sensitive: true }]),
    ];
    const message = registryMessages.secretForNewUrl('Password or token');
    for (const password of [SENSITIVE_PLACEHOLDER, '', undefined]) {
      const moved = await call('PUT', `${base()}/aa-plain`, members.write.idToken, { isDefault: false, credentials: creds(flakyUrl, password) });
      expect(moved.statusCode).toBe(400);
      expect(moved.json()).toMatchObject({ message, fields: { docker_password: [message] } });
    }
    expect(
      flakyAuth.filter((a) => a.includes(Buffer.from(`${reg.username}:${reg.password}`).toString('base64'))),
      'the password sent to another host',
    ).toEqual([]);
    expect((await rowOf('aa-plain')).credentials.registry_url).toBe(reg.url);
    // another path on the same host keeps it; a password given again may go to another host
    const samehost = await call('PUT', `${base()}/aa-plain`, members.write.idToken, { isDefault: false, credentials: creds(`${reg.url}/team`) });
    expect(samehost.statusCode).toBe(200);
    const given = await call('PUT', `${base()}/aa-plain`, members.write.idToken, { isDefault: false, credentials: creds(flakyUrl, 'another-password') });
    expect(given.statusCode).toBe(200);
    expect((await call('PUT', `${base()}/aa-plain`, owner.idToken, { isDefault: false, credentials: creds(reg.url, reg.password) })).statusCode).toBe(200);
  });

  it('removes a registry', async () => {
    expect((await call('POST', base(), owner.idToken, v2Body('gone'))).statusCode).toBe(201);
    const res = await call('DELETE', `${base()}/gone`, members.write.idToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await call('DELETE', `${base()}/gone`, owner.idToken)).statusCode).toBe(404);
  });
});

describe('repositories and versions', () => {
  it('lists the repositories under the registry_url path', async () => {
    const res = await call('GET', `${base()}/main/repositories`, members.read.idToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ repositories: [{ name: 'api' }, { name: 'web' }] });
  });

  it('answers versions newest first with latest first, commits from the labels, paged', async () => {
    const page1 = await call('GET', `${base()}/main/versions?repository=api&limit=3`, members.read.idToken);
    expect(page1.statusCode).toBe(200);
    expect(page1.json()).toEqual({
      tags: [
        { name: 'latest', date: '2025-12-01T00:00:00Z', digest: digests.latest, commit: null },
        { name: 'v3', date: '2026-03-01T00:00:00Z', digest: digests.v3, commit: null },
        {
          name: 'v2',
          date: '2026-02-01T00:00:00Z',
          digest: digests.v2,
          commit: { sha: '2222222bbbb', message: 'second', name: '2222222', user: { name: 'Ada', avatar: 'https://avatars.example/ada.png' } },
        },
      ],
      lastElementCursor: 3,
    });
    const page2 = await call('GET', `${base()}/main/versions?repository=api&offset=3&limit=3`, members.read.idToken);
    expect(page2.json()).toEqual({
      tags: [expect.objectContaining({ name: 'v1', digest: digests.v1, commit: expect.objectContaining({ sha: '1111111aaaa' }) })],
      lastElementCursor: -1,
    });
  });

  it('validates the versions query', async () => {
    expect((await call('GET', `${base()}/main/versions`, owner.idToken)).statusCode).toBe(400);
    expect((await call('GET', `${base()}/main/versions?repository=api&limit=0`, owner.idToken)).statusCode).toBe(400);
  });

  it("answers 502 with the registry's reason when it fails, 503 while it is unavailable, 404 for an unknown repository", async () => {
    expect((await call('POST', base(), owner.idToken, v2Body('flaky', { url: flakyUrl }))).statusCode).toBe(201);
    const repos = await call('GET', `${base()}/flaky/repositories`, owner.idToken);
    expect(repos.statusCode).toBe(502);
    expect(repos.json().message).toContain('UNKNOWN: storage driver failed');
    const versions = await call('GET', `${base()}/flaky/versions?repository=api`, owner.idToken);
    expect(versions.statusCode).toBe(503);
    expect(versions.json().code).toBe('RegistryUnavailable');
    expect((await call('GET', `${base()}/main/versions?repository=missing`, owner.idToken)).statusCode).toBe(404);
  });
});

describe('access', () => {
  it('refuses read members changes (403), other projects (404) and no session (401)', async () => {
    const put = { isDefault: false, credentials: v2Body('x').credentials };
    const routes = [
      { method: 'GET', url: base() },
      { method: 'POST', url: base(), payload: v2Body('x'), change: true },
      { method: 'GET', url: `${base()}/main` },
      { method: 'PUT', url: `${base()}/main`, payload: put, change: true },
      { method: 'DELETE', url: `${base()}/main`, change: true },
      { method: 'GET', url: `${base()}/main/repositories` },
      { method: 'GET', url: `${base()}/main/versions?repository=api` },
    ].map((r) => ({ ...r, url: `/ms-kube${r.url}` }) as GuardedRoute);
    await expectEveryProjectRouteListed(t, ['docker registries'], routes);
    await expectProjectGuards(t, routes, { reader: members.read.idToken, outsider: outsider.idToken });
    // the outsider's own registry named main is not reachable from this project by its owner either
    expect((await call('GET', `${base(otherProjectId)}/main`, owner.idToken)).statusCode).toBe(404);
  });

  it('is in the OpenAPI document', async () => {
    await expectDocumented(t, [
      '/ms-kube/projects/{projectId}/docker-registries',
      '/ms-kube/projects/{projectId}/docker-registries/{registryName}',
      '/ms-kube/projects/{projectId}/docker-registries/{registryName}/repositories',
      '/ms-kube/projects/{projectId}/docker-registries/{registryName}/versions',
    ]);
  });
});

describe('the registries port', () => {
  it("answers the push target of the default registry or a named one, never another project's", async () => {
    const port: RegistriesPort = t.app.services.registries;
    expect(await port.pushTarget(projectId)).toEqual({
      registryName: 'main',
      provider: 'DockerRegistryV2',
      host: reg.host,
      repositoryPrefix: 'team',
      username: reg.username,
      password: reg.password,
      tls: false,
    });
    expect(await port.pushTarget(projectId, 'aa-plain')).toMatchObject({ registryName: 'aa-plain', repositoryPrefix: '' });
    await expect(port.pushTarget(projectId, 'nope')).rejects.toMatchObject({ status: 404 });
    const fresh = await createProject(t, owner.idToken, 'Empty');
    await expect(port.pushTarget(fresh)).rejects.toMatchObject({ status: 404 });
    expect(await port.registryScan(projectId, 'main', 'api', digests.v1!)).toBeNull();
  });

  it("answers the commit of one tag from its image's labels, and null for a tag without them or one it cannot read", async () => {
    const port: RegistryVersionsPort = t.app.services.registries;
    expect(await port.commitOf(projectId, 'main', { repository: 'api', tag: 'v2' })).toEqual({
      sha: '2222222bbbb',
      message: 'second',
      name: '2222222',
      user: { name: 'Ada', avatar: 'https://avatars.example/ada.png' },
    });
    expect(await port.commitOf(projectId, 'main', { repository: 'api', tag: 'v3' })).toBeNull();
    expect(await port.commitOf(projectId, 'main', { repository: 'api', tag: 'v404' })).toBeNull();
    expect(await port.commitOf(projectId, 'nope', { repository: 'api', tag: 'v2' })).toBeNull();
  });
});
