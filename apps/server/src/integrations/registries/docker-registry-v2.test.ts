import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startRegistry, type LocalRegistry } from '@gantry/test-support';
import { GANTRY_IMAGE_LABELS } from '@gantry/contracts';
import { dockerRegistryV2Adapter } from './docker-registry-v2.js';
import { nextLink, parseChallenge } from './v2-client.js';
import { RegistryFailure } from './types.js';

const exec = promisify(execFile);

describe('challenge parsing', () => {
  it('reads Bearer and Basic challenges and Link headers', () => {
    expect(parseChallenge('Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/busybox:pull"')).toEqual({
      scheme: 'bearer',
      params: { realm: 'https://auth.docker.io/token', service: 'registry.docker.io', scope: 'repository:library/busybox:pull' },
    });
    expect(parseChallenge('Basic realm="Registry Realm"')).toEqual({ scheme: 'basic', params: { realm: 'Registry Realm' } });
    expect(nextLink('</v2/_catalog?last=b&n=2>; rel="next"')).toBe('/v2/_catalog?last=b&n=2');
    expect(nextLink(null)).toBeNull();
  });
});

describe.each(['htpasswd', 'token'] as const)('Docker Registry v2 adapter against Distribution with %s auth', (auth) => {
  let reg: LocalRegistry;
  const labels = { [GANTRY_IMAGE_LABELS.revision]: '0123456789abcdef', [GANTRY_IMAGE_LABELS.message]: 'Add the thing' };
  const digests: Record<string, string> = {};

  beforeAll(async () => {
    reg = await startRegistry({ auth });
    digests.v1 = await reg.pushImage('team/api', 'v1', { created: '2026-01-01T10:00:00Z', labels });
    digests.v2 = await reg.pushImage('team/api', 'v2', { created: '2026-02-01T10:00:00Z', format: 'oci' });
    digests.multi = await reg.pushImage('team/api', 'multi', { created: '2026-03-01T10:00:00Z', format: 'index', labels: { a: 'b' } });
    await reg.pushImage('other', 'latest');
    // more repositories than one catalog page would need with n=1, to see Link pages followed
    for (const n of ['zeta', 'alpha']) await reg.pushImage(`team/${n}`, 'x');
  });
  afterAll(async () => {
    await reg?.stop();
  });

  const adapter = (o: { url?: string; password?: string } = {}) =>
    dockerRegistryV2Adapter({ registryUrl: o.url ?? reg.url, username: reg.username, password: o.password ?? reg.password });

  it("verifies good credentials and refuses bad ones with the registry's reason", async () => {
    await expect(adapter().verify()).resolves.toBeUndefined();
    const bad = adapter({ password: 'wrong' }).verify();
    await expect(bad).rejects.toBeInstanceOf(RegistryFailure);
    await expect(bad).rejects.toThrow(auth === 'token' ? /token service refused/ : /authentication failed|UNAUTHORIZED/);
    if (auth === 'token') expect(reg.tokenRequests.some((r) => r.status === 401 && r.user === reg.username)).toBe(true);
  });

  it('lists the catalog, and only what is under the registry_url path', async () => {
    expect(await adapter().listRepositories()).toEqual(['other', 'team/alpha', 'team/api', 'team/zeta']);
    expect(await adapter({ url: `${reg.url}/team` }).listRepositories()).toEqual(['alpha', 'api', 'zeta']);
    // one repository a page: every Link followed
    expect(await dockerRegistryV2Adapter({ registryUrl: reg.url, username: reg.username, password: reg.password, pageSize: 1 }).listRepositories()).toEqual([
      'other',
      'team/alpha',
      'team/api',
      'team/zeta',
    ]);
    if (auth === 'token') expect(reg.tokenRequests.some((r) => r.scopes.includes('registry:catalog:*') && r.status === 200)).toBe(true);
  });

  it('lists tags with digest, created and labels (docker, OCI and an OCI index)', async () => {
    const tags = await adapter({ url: `${reg.url}/team` }).listTags('api');
    expect(tags.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'multi', date: '2026-03-01T10:00:00Z', digest: digests.multi, labels: { a: 'b' } },
      { name: 'v1', date: '2026-01-01T10:00:00Z', digest: digests.v1, labels },
      { name: 'v2', date: '2026-02-01T10:00:00Z', digest: digests.v2, labels: {} },
    ]);
  });

  it('answers the push target with the path as prefix and plain HTTP', async () => {
    expect(await adapter({ url: `${reg.url}/team` }).pushTarget()).toEqual({
      host: reg.host,
      repositoryPrefix: 'team',
      username: reg.username,
      password: reg.password,
      tls: false,
    });
  });

  it('pushed a real image: skopeo reads it with the same digest', async () => {
    const { stdout } = await exec('skopeo', [
      'inspect',
      '--tls-verify=false',
      '--creds',
      `${reg.username}:${reg.password}`,
      `docker://${reg.host}/team/api:v1`,
    ]);
    expect(JSON.parse(stdout)).toMatchObject({ Digest: digests.v1, Labels: labels });
  });

  it('an unknown repository is a 404 failure', async () => {
    await expect(adapter().listTags('nope')).rejects.toMatchObject({ status: 404 });
  });
});
