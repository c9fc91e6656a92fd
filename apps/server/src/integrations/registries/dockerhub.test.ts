import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startDockerHubStandin, startRegistry, type DockerHubStandin, type LocalRegistry } from '@gantry/test-support';
import { GANTRY_IMAGE_LABELS } from '@gantry/contracts';
import { dockerhubAdapter } from './dockerhub.js';

let hub: DockerHubStandin;
let reg: LocalRegistry;
const user = { username: 'Acme', password: 'dckr_pat_good' };

beforeAll(async () => {
  // Docker Hub's registry side is a real Distribution with token auth, holding acme/web:v2 with labels
  reg = await startRegistry({ auth: 'token', users: { Acme: user.password } });
  const digest = await reg.pushImage('acme/web', 'v2', { labels: { [GANTRY_IMAGE_LABELS.revision]: 'abc1234def' } });
  hub = await startDockerHubStandin({
    ...user,
    pageSize: 2,
    repositories: {
      web: [
        { name: 'v1', digest: 'sha256:1111', last_updated: '2026-01-01T00:00:00.000000Z' },
        { name: 'v2', digest, last_updated: '2026-02-01T00:00:00.000000Z' },
        { name: 'latest', digest, last_updated: '2026-02-01T00:00:00.000000Z' },
      ],
      api: [],
      worker: [],
    },
  });
});
afterAll(async () => {
  await hub?.stop();
  await reg?.stop();
});

const adapter = (password = user.password) => dockerhubAdapter({ apiUrl: hub.url, registryUrl: reg.url, username: user.username, password });

describe('Docker Hub adapter', () => {
  it("verifies through POST /v2/users/login and answers Docker Hub's reason on refusal", async () => {
    await expect(adapter().verify()).resolves.toBeUndefined();
    await expect(adapter('wrong').verify()).rejects.toMatchObject({ message: 'Incorrect authentication credentials.', status: 401 });
  });

  it("lists the user's repositories over every page", async () => {
    expect(await adapter().listRepositories()).toEqual(['api', 'web', 'worker']);
    expect(hub.requests.filter((r) => r.path.startsWith('/v2/repositories/acme/?')).length).toBe(2);
  });

  it('lists tags with date and digest, and reads labels from the registry', async () => {
    const a = adapter();
    const tags = await a.listTags('web');
    expect(tags).toEqual([
      { name: 'v1', date: '2026-01-01T00:00:00.000000Z', digest: 'sha256:1111' },
      { name: 'v2', date: '2026-02-01T00:00:00.000000Z', digest: tags[1]!.digest },
      { name: 'latest', date: '2026-02-01T00:00:00.000000Z', digest: tags[1]!.digest },
    ]);
    expect(await a.labels('web', 'v2')).toEqual({ [GANTRY_IMAGE_LABELS.revision]: 'abc1234def' });
  });

  it('pushes to docker.io under the user', async () => {
    expect(await adapter().pushTarget()).toEqual({ host: 'docker.io', repositoryPrefix: 'acme', username: 'Acme', password: user.password, tls: true });
  });

  it('passes 503 on as an unavailable failure', async () => {
    const a = adapter();
    await a.verify();
    hub.failNext(503);
    await expect(a.listTags('web')).rejects.toMatchObject({ status: 503, unavailable: true });
  });
});
