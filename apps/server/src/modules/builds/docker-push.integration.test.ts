import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { GANTRY_IMAGE_LABELS } from '@gantry/contracts';
import { startRegistry, type LocalRegistry } from '@gantry/test-support';
import { createTestApp, registerUser, createProject, bearer, until, type TestApp, insertGitAccount } from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';
import { commitSymlink } from '../../../test/security/security-helpers.js';
import { gitAccounts } from '../git-accounts/git-accounts.tables.js';
import type { RegistriesPort, RegistryPushTarget } from '../registries/registries.port.js';
import { detectCgroups } from '../../integrations/executor/box-limits.js';

/**
 * docker-push through the real app: a real git repository, buildah in the real build sandbox, and
 * Debian's Distribution registry with htpasswd auth; the pushed image is checked with skopeo.
 */
const CANARY = `canary-${crypto.randomBytes(6).toString('hex')}`;
const SPEC = (extra = '') => `steps:
  Clone:
    type: git-clone
  Push:
    type: docker-push
    image_name: web
    tag: "b-{{GANTRY_PIPELINE_EXECUTION_ID}}"
${extra}  After:
    commands:
      - 'ls -la "$(dirname "$HOME").gantry"'
      - 'test ! -e "$(dirname "$HOME").gantry/image-Push" && echo NO-PRIVATE-DIR'
      - 'if grep -rqs -- "$REG_PW" "$(dirname "$HOME")" "$(dirname "$HOME").gantry"; then echo PASSWORD-FOUND; else echo PASSWORD-NOT-FOUND; fi'
`;
const DOCKERFILE = 'FROM scratch\n# a comment\nCOPY app.txt /app/app.txt\nLABEL org.example.team=web\n';

let t: TestApp;
let git: ReturnType<typeof createLocalGit>;
let registry: LocalRegistry;
let dataDir: string;
let owner: { idToken: string };
let projectId: string;
let gitAccountId: string;
let password: string;
const asked: { projectId: string; registryName: string | null | undefined }[] = [];

const fakeRegistries: RegistriesPort = {
  async pushTarget(project, registryName) {
    asked.push({ projectId: project, registryName });
    return {
      registryName: registryName || 'local',
      provider: 'DockerRegistryV2',
      host: registry.host,
      repositoryPrefix: 'acme',
      username: registry.username,
      password,
      tls: false,
    } satisfies RegistryPushTarget;
  },
  registryScan: async () => null,
};

const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-ap/projects/${projectId}${url}`, headers: bearer(owner.idToken), payload });
const waitForBuild = (pipelineId: string, buildId: string) =>
  until(
    async () => (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`)).json(),
    (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
    `build ${buildId} to finish`,
  );
const logsOf = async (pipelineId: string, buildId: string, step: string) =>
  ((await api('GET', `/pipelines/${pipelineId}/builds/${buildId}/steps/${step}/logs`)).json().chunks as { text: string }[]).map((c) => c.text).join('\n');

async function pipelineWith(name: string, files: Record<string, string>) {
  const repo = git.createRepo(`acme/${name}`, files);
  const res = await api('POST', '/pipelines', {
    name,
    gitAccountId,
    repositoryUrl: repo.url,
    branchFilter: 'main',
    automatedTrigger: false,
    environmentVariables: [{ key: 'REG_PW', value: password, sensitive: false }],
  });
  expect(res.statusCode, res.body).toBe(201);
  return { pipelineId: res.json().pipelineId as string, bare: repo.url, sha: repo.sha };
}
async function build(pipelineId: string) {
  const res = await api('POST', `/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' });
  expect(res.statusCode, res.body).toBe(201);
  return waitForBuild(pipelineId, res.json().buildId);
}
const skopeo = (...args: string[]) => execFileSync('skopeo', args, { encoding: 'utf8' });
const inspect = (ref: string) => JSON.parse(skopeo('inspect', '--tls-verify=false', '--creds', `${registry.username}:${registry.password}`, `docker://${ref}`));

beforeAll(async () => {
  registry = await startRegistry({ auth: 'htpasswd' });
  password = registry.password;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-push-data-'));
  fs.writeFileSync(path.join(dataDir, 'canary.txt'), CANARY);
  git = createLocalGit();
  t = await createTestApp({ GANTRY_DATA_DIR: dataDir }, { overrides: { pipelines: { gitAccess: git.access, registries: fakeRegistries } } });
  owner = await registerUser(t, 'push-owner@example.com');
  projectId = await createProject(t, owner.idToken, 'Push');
  const row = await insertGitAccount(t, projectId);
  gitAccountId = row!.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  git?.close();
  await registry?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('docker-push step', () => {
  it('builds the image in the sandbox, pushes it with the Gantry labels and records reference and digest', async () => {
    const { pipelineId, sha } = await pipelineWith('web', { 'gantry.yaml': SPEC(), Dockerfile: DOCKERFILE, 'app.txt': 'hello image' });
    const done = await build(pipelineId);
    const pushLog = await logsOf(pipelineId, done.id, 'Push');
    expect(done.status, `${done.errorMessage}\n${pushLog}`).toBe('SUCCEEDED');
    const step = done.steps.find((s: { name: string }) => s.name === 'Push');
    const tag = `b-${done.id}`;
    const reference = `${registry.host}/acme/web:${tag}`;
    expect(step.reports.image).toEqual({ reference, digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), registry: 'local', repository: 'acme/web', tag });
    expect(step.reports.containerScan).toBeUndefined(); // no CONTAINER_SCANNER: no scan
    expect(asked.at(-1)).toEqual({ projectId, registryName: null });

    // independently: skopeo sees the image, its labels and the recorded digest
    const seen = inspect(reference);
    expect(seen.Digest).toBe(step.reports.image.digest);
    expect(seen.Labels).toMatchObject({
      [GANTRY_IMAGE_LABELS.revision]: sha,
      [GANTRY_IMAGE_LABELS.pipeline]: 'web',
      [GANTRY_IMAGE_LABELS.build]: done.id,
      [GANTRY_IMAGE_LABELS.message]: 'initial',
      'org.example.team': 'web',
    });
    expect(seen.Labels[GANTRY_IMAGE_LABELS.source]).toMatch(/acme__web\.git$/);
    expect(Date.parse(seen.Labels[GANTRY_IMAGE_LABELS.created])).not.toBeNaN();
    for (const key of Object.values(GANTRY_IMAGE_LABELS)) expect(seen.Labels, key).toHaveProperty([key]);

    // the credentials never reached the workspace, the log, or a later step; the private folder is gone
    const afterLog = await logsOf(pipelineId, done.id, 'After');
    expect(afterLog).toContain('NO-PRIVATE-DIR');
    expect(afterLog).toContain('PASSWORD-NOT-FOUND');
    expect(pushLog).toContain(`pushed ${reference}@${step.reports.image.digest}`);
    expect(pushLog).not.toContain(password);
    // the workspace goes just after the build's end is told (a spare box's, for the next build, may be there)
    await until(
      async () => fs.readdirSync(path.join(dataDir, 'workspaces')),
      (left) => !left.includes(done.id) && !left.includes(`${done.id}.gantry`),
      'the workspace to be removed',
    );
  });

  it.runIf(process.getuid?.() === 0)('runs RUN instructions as root of a user namespace of the build, which is the sandbox uid on the host', async () => {
    const spec = `steps:
  Clone:
    type: git-clone
  Tools:
    commands:
      - cp /bin/busybox ./busybox
  Push:
    type: docker-push
    image_name: runner
    tag: "r-{{GANTRY_PIPELINE_EXECUTION_ID}}"
`;
    const script = [
      'echo built-by-run > /ran.txt',
      '/bin/busybox id -u > /uid.txt',
      '/bin/busybox cat /proc/self/uid_map > /map.txt',
      `(/bin/busybox cat ${dataDir}/canary.txt || echo no-data-dir) > /canary.txt`,
      'mkdir /home && mkdir /home/app && /bin/busybox chown 1000:1000 /home/app',
    ].join(' && ');
    const { pipelineId } = await pipelineWith('runner', {
      'gantry.yaml': spec,
      Dockerfile: `FROM scratch\nCOPY busybox /bin/busybox\nRUN ["/bin/busybox", "sh", "-c", "${script.replace(/"/g, '\\"')}"]\n`,
    });
    const done = await build(pipelineId);
    const pushLog = await logsOf(pipelineId, done.id, 'Push');
    expect(done.status, `${done.errorMessage}\n${pushLog}`).toBe('SUCCEEDED');
    const step = done.steps.find((s: { name: string }) => s.name === 'Push');

    // the image's last layer, fetched independently with skopeo: what RUN wrote, as whom
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-run-image-'));
    try {
      skopeo(
        'copy',
        '--src-tls-verify=false',
        '--src-creds',
        `${registry.username}:${registry.password}`,
        `docker://${step.reports.image.reference}`,
        `dir:${out}`,
      );
      const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8')) as { layers: { digest: string }[] };
      const layer = path.join(out, manifest.layers.at(-1)!.digest.replace(/^sha256:/, ''));
      const files = fs.mkdtempSync(path.join(out, 'fs-'));
      execFileSync('tar', ['-xzf', layer, '-C', files, '--numeric-owner']);
      expect(fs.readFileSync(path.join(files, 'ran.txt'), 'utf8')).toBe('built-by-run\n');
      expect(fs.readFileSync(path.join(files, 'uid.txt'), 'utf8')).toBe('0\n');
      expect(fs.readFileSync(path.join(files, 'map.txt'), 'utf8').trim().split('\n')[0]!.trim().split(/\s+/)).toEqual(['0', '64000', '1']);
      expect(fs.readFileSync(path.join(files, 'canary.txt'), 'utf8')).toBe('no-data-dir\n');
      const listing = execFileSync('tar', ['-tvzf', layer, '--numeric-owner'], { encoding: 'utf8' });
      expect(listing).toMatch(/1000\/1000 .* home\/app\/?$/m);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  it("a wrong password fails the step with the registry's reason, and the password is in no stored log", async () => {
    const { pipelineId } = await pipelineWith('wrongpw', { 'gantry.yaml': SPEC('    registry: other\n'), Dockerfile: DOCKERFILE, 'app.txt': 'x' });
    password = `wrong-${crypto.randomBytes(8).toString('hex')}`;
    try {
      const done = await build(pipelineId);
      expect(done.status).toBe('FAILED');
      expect(asked.at(-1)).toEqual({ projectId, registryName: 'other' });
      expect(done.errorMessage).toMatch(/^Step Push failed: buildah push failed: .*(unauthorized|authentication required)/i);
      const raw = await t.app.services.database.executeSql(`select string_agg(text, E'\\n') as t from build_logs where build_id = '${done.id}'`);
      expect(String(raw.rows[0].t)).toContain('buildah push');
      expect(String(raw.rows[0].t)).not.toContain(password);
      expect(JSON.stringify(done)).not.toContain(password);
    } finally {
      password = registry.password;
    }
  });

  it('cannot take files of the data dir into the image: not through a linked Dockerfile, not through a link in the context', async () => {
    const linked = await pipelineWith('linked', {
      'gantry.yaml': SPEC().replace('    image_name: web\n', '    image_name: web\n    dockerfile: Dockerfile.link\n'),
      'app.txt': 'x',
    });
    commitSymlink(linked.bare, 'Dockerfile.link', path.join(dataDir, 'canary.txt'));
    const refused = await build(linked.pipelineId);
    expect(refused.status).toBe('FAILED');
    expect(refused.errorMessage).toBe('Step Push failed: The Dockerfile Dockerfile.link was not found in the repository');

    const stealing = await pipelineWith('stealing', {
      'gantry.yaml': SPEC(),
      Dockerfile: 'FROM scratch\nCOPY stolen/ /stolen/\nCOPY canary.link /canary.txt\n',
      'app.txt': 'x',
    });
    commitSymlink(stealing.bare, 'stolen', dataDir);
    commitSymlink(stealing.bare, 'canary.link', path.join(dataDir, 'canary.txt'));
    const done = await build(stealing.pipelineId);
    const log = await logsOf(stealing.pipelineId, done.id, 'Push');
    expect(log).not.toContain(CANARY);
    if (done.status === 'SUCCEEDED') {
      // whatever went into the image: not the canary
      const out = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-pulled-'));
      try {
        skopeo(
          'copy',
          '--src-tls-verify=false',
          '--src-creds',
          `${registry.username}:${registry.password}`,
          `docker://${done.steps[1].reports.image.reference}`,
          `dir:${out}`,
        );
        for (const f of fs.readdirSync(out)) {
          const bytes = fs.readFileSync(path.join(out, f));
          const text =
            f === 'manifest.json' || f === 'version'
              ? bytes.toString()
              : (() => {
                  try {
                    return execFileSync('tar', ['-xzOf', path.join(out, f)], { encoding: 'latin1', stdio: ['ignore', 'pipe', 'ignore'] });
                  } catch {
                    return bytes.toString('latin1');
                  }
                })();
          expect(text).not.toContain(CANARY);
        }
      } finally {
        fs.rmSync(out, { recursive: true, force: true });
      }
    } else {
      expect(done.errorMessage).toMatch(/^Step Push failed: buildah bud failed/);
    }
  });
});

describe('docker-push container scan', () => {
  // a stand-in scanner on every Debian host: busybox echoes Trivy-shaped JSON (no spaces: the command is split on them)
  const SCANNER =
    '/bin/busybox echo {"SchemaVersion":2,"ArtifactName":"{archive}","Results":[{"Target":"x","Vulnerabilities":[{"Severity":"HIGH"},{"Severity":"HIGH"},{"Severity":"LOW"}]}]}';
  let scanApp: TestApp;
  let provider: RegistryPushTarget['provider'] = 'DockerRegistryV2';
  const ecrScans: string[][] = [];
  const ports: RegistriesPort = {
    pushTarget: async () => ({
      registryName: 'local',
      provider,
      host: registry.host,
      repositoryPrefix: 'scan',
      username: registry.username,
      password: registry.password,
      tls: false,
    }),
    async registryScan(project, registryName, repository, digest) {
      ecrScans.push([project, registryName, repository, digest]);
      return {
        imageName: repository,
        imageTag: 'from-ecr',
        status: 'COMPLETE',
        statusDescription: 'ECR scan',
        severityCounts: { CRITICAL: 3 },
        scanner: 'ecr',
      };
    },
  };
  let scanOwner: { idToken: string };
  let scanProject: string;
  let scanGitAccount: string;
  const scanApi = (method: 'GET' | 'POST', url: string, payload?: object) =>
    scanApp.app.inject({ method, url: `/ms-ap/projects/${scanProject}${url}`, headers: bearer(scanOwner.idToken), payload });

  beforeAll(async () => {
    scanApp = await createTestApp({ CONTAINER_SCANNER: SCANNER }, { overrides: { pipelines: { gitAccess: git.access, registries: ports } } });
    scanOwner = await registerUser(scanApp, 'scan-owner@example.com');
    scanProject = await createProject(scanApp, scanOwner.idToken, 'Scan');
    const [row] = await scanApp.app.services.database.db
      .insert(gitAccounts)
      .values({
        projectId: scanProject,
        type: 'github',
        accountName: 'acme',
        externalId: '1',
        accessTokenSealed: scanApp.app.services.secrets.seal('local-token'),
      })
      .returning();
    scanGitAccount = row!.id;
  }, 60_000);
  afterAll(async () => {
    await scanApp?.close();
  });

  async function pushOnce(name: string) {
    const repo = git.createRepo(`scan/${name}`, {
      'gantry.yaml': 'steps:\n  Clone:\n    type: git-clone\n  Push:\n    type: docker-push\n    image_name: scanned\n',
      Dockerfile: DOCKERFILE,
      'app.txt': 'x',
    });
    const created = await scanApi('POST', '/pipelines', {
      name,
      gitAccountId: scanGitAccount,
      repositoryUrl: repo.url,
      branchFilter: 'main',
      automatedTrigger: false,
    });
    const pipelineId = created.json().pipelineId as string;
    const res = await scanApi('POST', `/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' });
    const done = await until(
      async () => (await scanApi('GET', `/pipelines/${pipelineId}/builds/${res.json().buildId}`)).json(),
      (b) => ['SUCCEEDED', 'FAILED'].includes(b.status),
      'the build to finish',
    );
    expect(done.status, done.errorMessage).toBe('SUCCEEDED');
    return { done, sha: repo.sha, step: done.steps.find((s: { name: string }) => s.name === 'Push') };
  }

  it('scans the built image with CONTAINER_SCANNER, in the sandbox, tagged with the short commit sha', async () => {
    const { step, sha } = await pushOnce('scanned');
    expect(step.reports.image.tag).toBe(sha.slice(0, 7));
    expect(step.reports.containerScan).toEqual({
      imageName: 'scanned',
      imageTag: sha.slice(0, 7),
      status: 'COMPLETE',
      statusDescription: 'Found 2 high, 1 low',
      severityCounts: { HIGH: 2, LOW: 1 },
      scanner: 'trivy',
    });
  });

  /** A build of a pipeline that pushes an image, in a project of its own on `app`: its id, and the build once it ended. */
  async function pushOn(app: TestApp, name: string) {
    const user = await registerUser(app, `${name}@example.com`);
    const project = await createProject(app, user.idToken, name);
    const account = (await insertGitAccount(app, project)).id;
    const repo = git.createRepo(`scan/${name}`, {
      'gantry.yaml': `steps:\n  Clone:\n    type: git-clone\n  Push:\n    type: docker-push\n    image_name: ${name}\n`,
      Dockerfile: DOCKERFILE,
      'app.txt': 'x',
    });
    const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
      app.app.inject({ method, url: `/ms-ap/projects/${project}${url}`, headers: bearer(user.idToken), payload });
    const pipelineId = (
      await api('POST', '/pipelines', { name, gitAccountId: account, repositoryUrl: repo.url, branchFilter: 'main', automatedTrigger: false })
    ).json().pipelineId as string;
    const buildId = (await api('POST', `/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' })).json().buildId as string;
    const ended = () =>
      until(
        async () => (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`)).json(),
        (b) => ['SUCCEEDED', 'FAILED'].includes(b.status),
        'the build to finish',
        90_000,
      );
    return { buildId, ended };
  }

  it("runs the scanner in the build's group, under the build's limits", async () => {
    const cgroups = detectCgroups();
    if (cgroups.kind === 'none') return; // no group to be in here
    // a scanner that runs long enough to be seen (its output is no report: the scan is FAILED, the push stands)
    const mark = `${2 + Math.floor(Math.random() * 1000) / 1000}`;
    const app = await createTestApp(
      { CONTAINER_SCANNER: `/bin/busybox sleep ${mark}` },
      { overrides: { pipelines: { gitAccess: git.access, registries: ports } } },
    );
    try {
      const { buildId, ended } = await pushOn(app, 'grouped');
      // the scanner's process, and the groups it is in (as the host sees them: `<hierarchy>:<path>`)
      const scannerGroups = () => {
        for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)))
          try {
            const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
            if (args[0] === '/bin/busybox' && args[1] === 'sleep' && args[2] === mark) return fs.readFileSync(`/proc/${pid}/cgroup`, 'utf8');
          } catch {
            /* ended meanwhile */
          }
        return undefined;
      };
      const seen = await until(
        async () => scannerGroups(),
        (g) => g !== undefined,
        'the scanner to run',
        60_000,
        20,
      );
      expect(seen).toMatch(new RegExp(`^\\d+:pids:.*/gantry/w[0-9a-f]{10}-${buildId}$|^0::.*/gantry/w[0-9a-f]{10}-${buildId}$`, 'm'));
      const done = await ended();
      expect(done.status, done.errorMessage).toBe('SUCCEEDED');
    } finally {
      await app.close();
    }
  });

  it('says a scan the memory limit ended went over it, and the push stands', async () => {
    if (detectCgroups().kind === 'none') return; // no group, no memory limit of its own here
    // a scanner that keeps what it reads of an endless input (no spaces: the command is split on them)
    const app = await createTestApp(
      { CONTAINER_SCANNER: '/bin/busybox sh -c tail</dev/zero', GANTRY_BUILD_MEMORY: '256m' },
      { overrides: { pipelines: { gitAccess: git.access, registries: ports } } },
    );
    try {
      const { ended } = await pushOn(app, 'hogged');
      const done = await ended();
      expect(done.status, done.errorMessage).toBe('SUCCEEDED');
      const step = done.steps.find((s: { name: string }) => s.name === 'Push');
      expect(step.reports.image.digest).toMatch(/^sha256:/);
      expect(step.reports.containerScan).toMatchObject({
        status: 'FAILED',
        statusDescription: 'A process was killed: the container scan went over its memory limit of 256 MiB',
        scanner: 'busybox',
      });
    } finally {
      await app.close();
    }
  }, 120_000);

  it("takes ECR's own scan of the pushed digest when the registry has one", async () => {
    provider = 'Ecr';
    try {
      const { step } = await pushOnce('ecr');
      expect(ecrScans.at(-1)).toEqual([scanProject, 'local', 'scan/scanned', step.reports.image.digest]);
      expect(step.reports.containerScan).toMatchObject({ scanner: 'ecr', severityCounts: { CRITICAL: 3 } });
    } finally {
      provider = 'DockerRegistryV2';
    }
  });
});
