import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startGitlabRegistryStandin, startRegistry, type GitlabRegistryStandin, type LocalRegistry } from '@gantry/test-support';
import { GANTRY_IMAGE_LABELS } from '@gantry/contracts';
import { gitlabAdapter } from './gitlab.js';

let gl: GitlabRegistryStandin;
let reg: LocalRegistry;
const TOKEN = 'glpat-good-token';

beforeAll(async () => {
  reg = await startRegistry({ auth: 'token', users: { 'gantry-deploy': TOKEN } });
  const digest = await reg.pushImage('acme/shop/api', '1.0.0', { labels: { [GANTRY_IMAGE_LABELS.revision]: 'feedbeef' } });
  gl = await startGitlabRegistryStandin({
    token: TOKEN,
    pageSize: 1,
    groups: [{ id: 7, fullPath: 'acme' }],
    projects: [
      { id: 42, pathWithNamespace: 'acme/shop', groupId: 7 },
      { id: 43, pathWithNamespace: 'acme/blog', groupId: 7 },
    ],
    repositories: [
      {
        id: 1,
        projectId: 42,
        path: 'acme/shop/api',
        tags: [
          { name: '1.0.0', digest, created_at: '2026-03-01T12:00:00.000+00:00' },
          { name: 'latest', digest, created_at: '2026-03-01T12:00:00.000+00:00' },
        ],
      },
      { id: 2, projectId: 42, path: 'acme/shop', tags: [] },
      { id: 3, projectId: 43, path: 'acme/blog/web', tags: [] },
    ],
  });
});
afterAll(async () => {
  await gl?.stop();
  await reg?.stop();
});

const adapter = (o: { hierarchy?: 'groups' | 'projects'; id?: string; password?: string } = {}) =>
  gitlabAdapter({
    gitlabUrl: gl.gitlabUrl,
    registryUrl: reg.url,
    hierarchy: o.hierarchy ?? 'projects',
    id: o.id ?? '42',
    username: 'gantry-deploy',
    password: o.password ?? TOKEN,
  });

describe('GitLab container registry adapter', () => {
  it("verifies the token through the API and answers GitLab's reason on refusal", async () => {
    await expect(adapter().verify()).resolves.toBeUndefined();
    await expect(adapter({ password: 'glpat-wrong' }).verify()).rejects.toMatchObject({ message: 'GitLab project 42: 401 Unauthorized', status: 401 });
    await expect(adapter({ id: '999' }).verify()).rejects.toMatchObject({ status: 404 });
  });

  it("lists a project's repositories relative to its path, over every page", async () => {
    expect(await adapter().listRepositories()).toEqual(['acme/shop', 'api']);
    expect(await adapter({ hierarchy: 'groups', id: '7' }).listRepositories()).toEqual(['blog/web', 'shop', 'shop/api']);
  });

  it('lists tags with created_at and digest from the tag detail, labels from the registry', async () => {
    const a = adapter();
    const tags = await a.listTags('api');
    expect(tags).toEqual([
      { name: '1.0.0', date: '2026-03-01T12:00:00.000+00:00', digest: expect.stringMatching(/^sha256:/) },
      { name: 'latest', date: '2026-03-01T12:00:00.000+00:00', digest: tags[0]!.digest },
    ]);
    expect(await a.labels('api', '1.0.0')).toEqual({ [GANTRY_IMAGE_LABELS.revision]: 'feedbeef' });
    await expect(a.listTags('missing')).rejects.toMatchObject({ status: 404 });
  });

  it('pushes under the group or project full path', async () => {
    expect(await adapter().pushTarget()).toEqual({ host: reg.host, repositoryPrefix: 'acme/shop', username: 'gantry-deploy', password: TOKEN, tls: false });
    expect((await adapter({ hierarchy: 'groups', id: '7' }).pushTarget()).repositoryPrefix).toBe('acme');
  });
});
