import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, bearer, until, type TestApp } from '../helpers.js';
import { createLocalGit } from '../local-git.js';
import { gitAccounts } from '../../src/modules/git-accounts/git-accounts.tables.js';
import type { GitAccess } from '../../src/modules/pipelines/git-access.js';
import { dockerRegistries } from '../../src/modules/registries/registries.tables.js';
import { kubernetesClusters } from '../../src/modules/clusters/clusters.tables.js';
import { hostProcesses, unzip, commitSymlink } from './security-helpers.js';

/**
 * Real attacks of a build step on the server and on other projects, through the real app: real git
 * repositories over HTTP, real builds in the real sandbox. Every attack prints `ATTACK-OK <name>`
 * when it worked and `ATTACK-FAILED <name>` when it did not; the tests also look for the stolen
 * values themselves (in the logs, in artifacts, on the host), so an attack that "fails" noisily
 * while leaking still fails the test.
 */
const rand = () => crypto.randomBytes(6).toString('hex');
const CANARY = `canary-${rand()}`;
// the server's own environment: none of it may reach a step (set before the app is built)
process.env.GANTRY_TEST_CANARY = CANARY;
process.env.GANTRY_SECRET_KEY = `canary-secret-key-${rand()}-0123456789abcdef`;
process.env.DATABASE_URL ??= `postgres://gantry:canary-db-${rand()}@127.0.0.1:1/gantry`;
const HOST_SECRETS = [CANARY, process.env.GANTRY_SECRET_KEY, process.env.DATABASE_URL];
/** The git token: handed to git through the clone URL, as a provider's client does. */
const GIT_TOKEN = `gittok-${rand()}`;

let t: TestApp;
let git: ReturnType<typeof createLocalGit>;
let dataDir: string;
let secretKey: string;
const users: Record<'alice' | 'bob', { idToken: string; projectId: string; gitAccountId: string }> = {} as never;
const leftoverPids: number[] = [];

const api = (who: 'alice' | 'bob', method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-ap/projects/${users[who].projectId}${url}`, headers: bearer(users[who].idToken), payload });

async function createPipeline(who: 'alice' | 'bob', name: string, repoUrl: string, extra: object = {}) {
  const res = await api(who, 'POST', '/pipelines', {
    name,
    gitAccountId: users[who].gitAccountId,
    repositoryUrl: repoUrl,
    branchFilter: 'main',
    automatedTrigger: false,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().pipelineId as string;
}
/** A repository with this spec and files, and a pipeline of `who` building it. */
async function pipelineOf(who: 'alice' | 'bob', name: string, files: Record<string, string>, extra: object = {}) {
  const repo = git.createRepo(`${who}/${name}`, files);
  return { pipelineId: await createPipeline(who, name, repo.url, extra), bare: repo.url };
}
async function trigger(who: 'alice' | 'bob', pipelineId: string, branch = 'main') {
  const res = await api(who, 'POST', `/pipelines/${pipelineId}/builds`, { ref: `refs/heads/${branch}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().buildId as string;
}
const buildOf = async (who: 'alice' | 'bob', pipelineId: string, buildId: string) =>
  (await api(who, 'GET', `/pipelines/${pipelineId}/builds/${buildId}`)).json();
const waitForBuild = (who: 'alice' | 'bob', pipelineId: string, buildId: string) =>
  until(
    () => buildOf(who, pipelineId, buildId),
    (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
    `build ${buildId} to finish`,
  );
async function logsOf(who: 'alice' | 'bob', pipelineId: string, buildId: string, step: string) {
  const res = await api(who, 'GET', `/pipelines/${pipelineId}/builds/${buildId}/steps/${step}/logs`);
  return (res.json().chunks as { text: string }[]).map((c) => c.text).join('\n');
}
async function run(who: 'alice' | 'bob', pipelineId: string, branch = 'main') {
  return waitForBuild(who, pipelineId, await trigger(who, pipelineId, branch));
}

/** A step running a script of the repository (no YAML quoting in the way). */
const scriptSpec = (script: string, more = '') => `steps:
  Clone:
    type: git-clone
  Attack:
    commands:
      - bash ${script}
${more}`;

/** `attempt NAME command…`: runs the command, prints whether the attack worked and what it printed. */
const prelude = () => `DATA='${dataDir}'
attempt() { local name="$1"; shift; if out=$("$@" 2>&1); then echo "ATTACK-OK $name"; else echo "ATTACK-FAILED $name"; fi; printf '%s\\n' "$out"; }
`;

/** The outcome of each named attack in a log. */
const outcomes = (log: string) => Object.fromEntries([...log.matchAll(/^ATTACK-(OK|FAILED) (\S+)$/gm)].map((m) => [m[2], m[1]]));

function expectNoSecrets(text: string) {
  expect(text).not.toContain(secretKey);
  for (const s of HOST_SECRETS) expect(text).not.toContain(s);
  expect(text).not.toContain(GIT_TOKEN);
}

beforeAll(async () => {
  git = createLocalGit();
  // a provider's clone URL carries the token (`https://x-access-token:<token>@host/…`): the server must take it out
  const access: GitAccess = {
    async clientFor(projectId, gitAccountId) {
      const real = await git.access.clientFor(projectId, gitAccountId);
      return {
        ...real,
        token: GIT_TOKEN,
        client: { ...real.client, cloneUrl: (repo, token) => real.client.cloneUrl(repo, token).replace('http://', `http://x-access-token:${token}@`) },
      };
    },
  };
  // no GANTRY_SECRET_KEY: the key is generated into the data dir, as on a default install
  t = await createTestApp(
    { GANTRY_SECRET_KEY: '' },
    {
      overrides: { pipelines: { gitAccess: access } },
      beforeReady: async (_app, config) => {
        dataDir = config.dataDir;
      },
    },
  );
  // open the data dir and the key to every uid: only the sandbox's mounts keep them away (as when the box runs as the server's own user)
  fs.chmodSync(dataDir, 0o755);
  fs.chmodSync(path.join(dataDir, 'secret.key'), 0o644);
  secretKey = fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8').trim();
  expect(secretKey.length).toBeGreaterThan(20);
  for (const who of ['alice', 'bob'] as const) {
    const { idToken } = await registerUser(t, `${who}-sec@example.com`);
    const projectId = await createProject(t, idToken, `${who} project`);
    const [row] = await t.app.services.database.db
      .insert(gitAccounts)
      .values({ projectId, type: 'github', accountName: who, externalId: who, accessTokenSealed: t.app.services.secrets.seal(GIT_TOKEN) })
      .returning();
    users[who] = { idToken, projectId, gitAccountId: row!.id };
  }
});

afterAll(async () => {
  for (const pid of leftoverPids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* ended, as it should have */
    }
  }
  await t?.close();
  git?.close();
});

// a build waits for its state, not a timer (until() gives up after 90 s): a loaded machine is only slower
describe('a build step cannot reach the server', { timeout: 180_000 }, () => {
  it('reads nothing of the data dir, the key, host processes, the host environment or the git token, writes nothing outside its workspace, and is not root', async () => {
    const mark = rand();
    const probe = `${prelude()}
echo "UID=$(id -u) GID=$(id -g)"
attempt read-key cat "$DATA/secret.key"
# the data dir's path exists in the box only as the folders above the workspace mount
echo "DATA-LS=$(ls -A "$DATA" | tr '\\n' ' ')"
echo "WORKSPACES-LS=$(ls -A "$DATA/workspaces" | tr '\\n' ' ')"
attempt read-artifacts ls "$DATA/artifacts"
attempt host-environ cat /proc/${process.pid}/environ
attempt host-cmdline cat /proc/${process.pid}/cmdline
attempt touch-usr touch /usr/pwned-${mark}
attempt touch-etc touch /etc/pwned-${mark}
attempt touch-root touch /pwned-${mark}
attempt touch-data touch "$DATA/pwned-${mark}"
attempt touch-workspaces touch "$DATA/workspaces/pwned-${mark}"
echo "PIDS=$(ls /proc | grep -E '^[0-9]+$' | tr '\\n' ' ')"
echo "PID1=$(tr '\\0' ' ' < /proc/1/cmdline)"
echo "ENVIRONS-BEGIN"; for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f"; done; echo "ENVIRONS-END"
echo "ENV-BEGIN"; env; echo "ENV-END"
echo "REMOTE=$(git remote -v | head -1)"
echo "GIT-CREDS=$(grep -rIl -e x-access-token -e '@127.0.0.1' .git ../.home 2>/dev/null | tr '\\n' ' ')"
# the same, unmasked, for the test to search for the token (the log masks it)
printf '{"env":"%s","environs":"%s","gitconfig":"%s","remote":"%s","home":"%s"}' \\
  "$(env | base64 -w0)" "$(cat /proc/[0-9]*/environ | base64 -w0)" "$(base64 -w0 .git/config)" "$(git remote -v | base64 -w0)" \\
  "$(find "$HOME" -type f -exec cat {} + 2>/dev/null | base64 -w0)" > dump.json
`;
    const { pipelineId } = await pipelineOf('alice', 'probe', {
      'gantry.yaml': scriptSpec('probe.sh', '    artifacts:\n      json: dump.json\n'),
      'probe.sh': probe,
    });
    const build = await run('alice', pipelineId);
    expect(build.status, build.errorMessage).toBe('SUCCEEDED'); // the clone worked with the token kept out of the URL
    const log = await logsOf('alice', pipelineId, build.id, 'Attack');
    const clone = await logsOf('alice', pipelineId, build.id, 'Clone');

    const results = outcomes(log);
    expect(results).toEqual({
      'read-key': 'FAILED',
      'read-artifacts': 'FAILED',
      'host-environ': 'FAILED',
      'host-cmdline': 'FAILED',
      'touch-usr': 'FAILED',
      'touch-etc': 'FAILED',
      'touch-root': 'FAILED',
      'touch-data': 'FAILED',
      'touch-workspaces': 'FAILED',
    });
    expectNoSecrets(log);
    expectNoSecrets(clone);
    expect(/^DATA-LS=(.*)$/m.exec(log)?.[1]?.trim()).toBe('workspaces');
    expect(/^WORKSPACES-LS=(.*)$/m.exec(log)?.[1]?.trim().split(' ').sort()).toEqual([build.id, `${build.id}.gantry`]);
    // nothing was written on the host
    for (const f of [
      `/usr/pwned-${mark}`,
      `/etc/pwned-${mark}`,
      `/pwned-${mark}`,
      path.join(dataDir, `pwned-${mark}`),
      path.join(dataDir, 'workspaces', `pwned-${mark}`),
    ])
      expect(fs.existsSync(f), f).toBe(false);

    // an unprivileged uid: neither root nor the server's
    const uid = /^UID=(\d+) /m.exec(log)?.[1];
    expect(uid).toBeDefined();
    expect(Number(uid)).not.toBe(0);
    expect(Number(uid)).not.toBe(process.getuid!());

    // only the box's own processes: a handful of small pids, not the server, not the host's pid 1
    const pids = (/^PIDS=(.*)$/m.exec(log)?.[1] ?? '').trim().split(/\s+/).map(Number);
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.length).toBeLessThan(20);
    expect(pids).not.toContain(process.pid);
    const hostPid1 = fs.readFileSync('/proc/1/cmdline', 'utf8').split('\0').join(' ').trim();
    const boxPid1 = /^PID1=(.*)$/m.exec(log)?.[1]?.trim();
    expect(boxPid1).toBeTruthy();
    expect(boxPid1).not.toBe(hostPid1);

    // the step's environment holds none of the server's
    const env = /ENV-BEGIN\n([\s\S]*?)\nENV-END/.exec(log)?.[1] ?? '';
    expect(env).toContain('GANTRY_PIPELINE_NAME=probe'); // the dump is real
    const names = env.split('\n').map((l) => l.split('=')[0]);
    for (const name of [
      'GANTRY_TEST_CANARY',
      'GANTRY_SECRET_KEY',
      'DATABASE_URL',
      'GANTRY_DATA_DIR',
      'GANTRY_GIT_PASSWORD',
      'GANTRY_GIT_USERNAME',
      'NODE_OPTIONS',
      'VITEST',
    ])
      expect(names).not.toContain(name);
    const environs = /ENVIRONS-BEGIN\n([\s\S]*?)\nENVIRONS-END/.exec(log)?.[1] ?? '';
    expect(environs).toContain('GANTRY_PIPELINE_NAME=probe');
    expect(environs).not.toMatch(/GANTRY_TEST_CANARY|GANTRY_SECRET_KEY|DATABASE_URL|GANTRY_GIT_PASSWORD/);

    // the git token: the remote is the clean URL; the token is in no file, variable or process of the box (read unmasked from the artifact)
    expect(log).toMatch(/^REMOTE=origin\thttp:\/\/127\.0\.0\.1:\d+\/alice__probe\.git \(fetch\)$/m);
    expect(/^GIT-CREDS=(.*)$/m.exec(log)?.[1]?.trim()).toBe(''); // no file of the checkout or home holds a URL with credentials
    const artifact = build.steps.find((s: { name: string }) => s.name === 'Attack').artifacts[0];
    const dump = (await api('alice', 'GET', `/pipelines/${pipelineId}/builds/${build.id}/artifacts/${artifact.id}`)).json();
    const decoded = Object.fromEntries(Object.entries(dump as Record<string, string>).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]));
    expect(decoded.env).toContain('GANTRY_PIPELINE_NAME=probe');
    expect(decoded.gitconfig).toContain('[remote "origin"]');
    for (const [what, text] of Object.entries(decoded)) {
      expect(text, what).not.toContain(GIT_TOKEN);
      expect(text, what).not.toContain('x-access-token');
      expect(text, what).not.toContain(secretKey);
      for (const s of HOST_SECRETS) expect(text, what).not.toContain(s);
    }
  });

  it("cannot read the workspace of another project's build running at the same time", async () => {
    const secret = `holder-secret-${rand()}`;
    const holder = await pipelineOf('alice', 'holder', {
      'gantry.yaml': scriptSpec('hold.sh'),
      // waits, bounded, for the test to say the reader is done
      'hold.sh': `echo "${secret}" > ../secret.txt\necho "${secret}" > in-src.txt\necho holder-ready\nfor i in $(seq 1 900); do [ -e ../go ] && break; sleep 0.1; done\necho holder-done\n`,
    });
    const holderId = await trigger('alice', holder.pipelineId);
    await until(
      () => logsOf('alice', holder.pipelineId, holderId, 'Attack'),
      (l) => l.includes('holder-ready'),
      'the holder to write its secret',
    );
    const holderWorkspace = path.join(dataDir, 'workspaces', holderId);
    // the attack's target is real: the file is there on the host, at the path the reader uses
    expect(fs.readFileSync(path.join(holderWorkspace, 'secret.txt'), 'utf8')).toContain(secret);

    const reader = await pipelineOf('bob', 'reader', {
      'gantry.yaml': scriptSpec('read.sh'),
      'read.sh': `${prelude()}H=$(cat holder.txt)
attempt read-abs cat "$DATA/workspaces/$H/secret.txt"
attempt read-abs-src cat "$DATA/workspaces/$H/src/in-src.txt"
attempt read-rel cat "../../$H/secret.txt"
attempt list-other ls "$DATA/workspaces/$H"
attempt write-other touch "$DATA/workspaces/$H/pwned"
echo "SIBLINGS=$(ls ../.. | tr '\\n' ' ')"
`,
      // the reader is told the holder's build id through its repository
      'holder.txt': holderId,
    });
    const build = await run('bob', reader.pipelineId);
    expect(build.status, build.errorMessage).toBe('SUCCEEDED');
    expect((await buildOf('alice', holder.pipelineId, holderId)).status).toBe('RUNNING'); // both ran at the same time
    const log = await logsOf('bob', reader.pipelineId, build.id, 'Attack');
    expect(outcomes(log)).toEqual({ 'read-abs': 'FAILED', 'read-abs-src': 'FAILED', 'read-rel': 'FAILED', 'list-other': 'FAILED', 'write-other': 'FAILED' });
    expect(log).not.toContain(secret);
    expect(/^SIBLINGS=(.*)$/m.exec(log)?.[1]).not.toContain(holderId);
    expect(fs.existsSync(path.join(holderWorkspace, 'pwned'))).toBe(false);

    fs.writeFileSync(path.join(holderWorkspace, 'go'), '');
    const held = await waitForBuild('alice', holder.pipelineId, holderId);
    expect(held.status, held.errorMessage).toBe('SUCCEEDED');
    expect(await logsOf('alice', holder.pipelineId, holderId, 'Attack')).toContain('holder-done');
  });

  it('leaves no process behind once the build ends (background, setsid, nohup, double fork)', async () => {
    const tag = `gantry-leftover-${rand()}`;
    const { pipelineId } = await pipelineOf('alice', 'leftover', {
      'gantry.yaml': scriptSpec('leave.sh'),
      'leave.sh': `bash -c 'exec -a ${tag}-bg sleep 600' >/dev/null 2>&1 &
setsid bash -c 'exec -a ${tag}-setsid sleep 600' >/dev/null 2>&1 </dev/null &
nohup bash -c 'exec -a ${tag}-nohup sleep 600' >/dev/null 2>&1 &
( bash -c 'exec -a ${tag}-daemon sleep 600' >/dev/null 2>&1 </dev/null & )
echo sleepers-started
for i in $(seq 1 900); do [ -e ../go ] && break; sleep 0.1; done
echo leaving
`,
    });
    const buildId = await trigger('alice', pipelineId);
    // while the step runs, the host sees the four sleepers: the check below can see them
    const kinds = ['bg', 'setsid', 'nohup', 'daemon'].map((k) => `${tag}-${k}`);
    const running = await until(
      async () => hostProcesses(tag),
      (p) => kinds.every((k) => p.some((x) => x.argv.startsWith(`${k} `))),
      'the sleepers to start',
      60_000,
    );
    leftoverPids.push(...running.map((p) => p.pid));
    fs.writeFileSync(path.join(dataDir, 'workspaces', buildId, 'go'), '');
    const build = await waitForBuild('alice', pipelineId, buildId);
    expect(build.status, build.errorMessage).toBe('SUCCEEDED');
    expect(await logsOf('alice', pipelineId, buildId, 'Attack')).toContain('leaving');
    // the kernel ends them with the box; a short bounded wait for the reaping, not for a timer
    const left = await until(
      async () => hostProcesses(tag),
      (p) => p.length === 0,
      'the sleepers to be gone',
      10_000,
    ).catch(() => hostProcesses(tag));
    expect(left).toEqual([]);
  });

  it('runs a branch name with shell code in it as text, never as code', async () => {
    const branch = 'feat$(echo${IFS}INJECTED-$((40+2)))';
    const spec = `steps:
  Clone:
    type: git-clone
  Echo:
    commands:
      - echo "branch={{GANTRY_BRANCH}}"
      - echo {{GANTRY_BRANCH}}
      - echo "env=$GANTRY_BRANCH"
`;
    const { pipelineId } = await pipelineOf('alice', 'branchy', { 'gantry.yaml': spec });
    git.commit('alice/branchy', { 'gantry.yaml': spec }, 'branch', branch); // a branch of its own, with the spec
    const build = await run('alice', pipelineId, branch);
    expect(build.status, build.errorMessage).toBe('SUCCEEDED');
    expect(build.branch).toBe(branch);
    const log = await logsOf('alice', pipelineId, build.id, 'Echo');
    expect(log).toContain(`branch=${branch}`);
    expect(log.split('\n')).toContain(branch);
    expect(log).toContain(`env=${branch}`);
    const all = [log, await logsOf('alice', pipelineId, build.id, 'Clone')].join('\n');
    expect(all).not.toContain('INJECTED-42');
    expect(all).toContain(branch); // the clone names it too
  });

  it('puts no host file in an artifact through a link (file, folder, JSON)', async () => {
    const outside = `outside-${rand()}`;
    fs.writeFileSync(path.join(dataDir, 'outside.json'), JSON.stringify({ stolen: outside }), { mode: 0o644 });
    const hostname = fs.readFileSync('/etc/hostname', 'utf8').trim();
    const spec = `steps:
  Clone:
    type: git-clone
  Leak:
    commands:
      - bash leak.sh
    artifacts:
      files:
        out:
          - leak.txt
          - dir/
      json: leak.json
`;
    const { pipelineId } = await pipelineOf('alice', 'leaky', {
      'gantry.yaml': spec,
      'leak.sh': `DATA='${dataDir}'
ln -s "$DATA/secret.key" leak.txt
mkdir -p dir && echo visible > dir/real.txt
ln -s /etc/hostname dir/hostname
ln -s "$DATA/secret.key" dir/key
ln -s "$DATA" dir/data
ln -s / dir/root
ln -s "$DATA/outside.json" leak.json
ls -l . dir
`,
    });
    const build = await run('alice', pipelineId);
    // the JSON artifact is a link out of the workspace: refused, and the step fails
    expect(build.status).toBe('FAILED');
    expect(build.errorMessage).toBe('Step Leak failed: JSON artifact leak.json was not found');
    const log = await logsOf('alice', pipelineId, build.id, 'Leak');
    // each link out is named (folder entries by their name inside the folder)
    expect(log).toMatch(/^\[gantry\] left out of the artifact \(outside the workspace\): leak\.txt, .*data, .*hostname, .*key, .*root$/m);
    expectNoSecrets(log);
    expect(log).not.toContain(outside);

    const artifacts = build.steps.find((s: { name: string }) => s.name === 'Leak').artifacts as { id: string; kind: string; name: string }[];
    expect(artifacts.map((a) => [a.kind, a.name])).toEqual([['files', 'out']]);
    const zip = await api('alice', 'GET', `/pipelines/${pipelineId}/builds/${build.id}/artifacts/${artifacts[0]!.id}`);
    expect(zip.statusCode).toBe(200);
    const entries = unzip(zip.rawPayload);
    expect([...entries.keys()]).toEqual(['dir/real.txt']);
    expect(entries.get('dir/real.txt')!.toString()).toBe('visible\n');
    for (const content of [zip.rawPayload.toString('latin1'), ...[...entries.values()].map((b) => b.toString('utf8'))]) {
      expect(content).not.toContain(secretKey);
      expect(content).not.toContain(outside);
      if (hostname.length > 6) expect(content).not.toContain(hostname);
    }
    // and nothing of the host is stored under the artifacts either
    const stored = (await t.app.services.database.executeSql(`select location from build_artifacts where build_id = '${build.id}'`)).rows.map(
      (r) => r.location as string,
    );
    expect(stored).toHaveLength(1);
  });

  it("a step named '..' or '.' keeps its artifacts in its own build: a later build replaces none of them", async () => {
    const spec = `steps:
  '..':
    commands:
      - echo "$GANTRY_PIPELINE_EXECUTION_ID" > mine.txt
      - printf '{"build":"%s"}' "$GANTRY_PIPELINE_EXECUTION_ID" > mine.json
    artifacts:
      files:
        site:
          - mine.txt
      json: mine.json
  '.':
    commands:
      - echo "$GANTRY_PIPELINE_EXECUTION_ID" > dot.txt
    artifacts:
      files:
        site:
          - dot.txt
`;
    const { pipelineId } = await pipelineOf('alice', 'dots', { 'gantry.yaml': spec });
    const first = await run('alice', pipelineId);
    expect(first.status, first.errorMessage).toBe('SUCCEEDED');
    const second = await run('alice', pipelineId);
    expect(second.status, second.errorMessage).toBe('SUCCEEDED');
    // what the first build kept is still its own, read after the second
    const contents: string[] = [];
    for (const step of first.steps as { name: string; artifacts: { id: string; kind: string }[] }[]) {
      for (const a of step.artifacts) {
        const res = await api('alice', 'GET', `/pipelines/${pipelineId}/builds/${first.id}/artifacts/${a.id}`);
        expect(res.statusCode).toBe(200);
        contents.push(a.kind === 'json' ? res.json().build : [...unzip(res.rawPayload).values()][0]!.toString().trim());
      }
    }
    expect(contents).toEqual([first.id, first.id, first.id]);
    const locations = (await t.app.services.database.executeSql(`select location from build_artifacts where build_id = '${first.id}'`)).rows.map(
      (r) => r.location as string,
    );
    for (const l of locations) expect(l.split('/'), l).not.toContain('..');
  });

  it('refuses a work dir that leaves the checkout: ../src2, or a link in the repository to /', async () => {
    const spec = 'steps:\n  Clone:\n    type: git-clone\n  Escape:\n    commands:\n      - echo "escaped-to-$(pwd)"\n      - touch pwned-by-workdir\n';
    // ../src2: the spec cannot come from the repository there, it is kept in Gantry
    const up = await pipelineOf('alice', 'updir', { 'README.md': 'x' }, { workDir: '../src2' });
    expect((await api('alice', 'PUT', `/pipelines/${up.pipelineId}/spec`, { gantryYaml: spec })).statusCode).toBe(200);
    const b1 = await run('alice', up.pipelineId);
    expect(b1.status).toBe('FAILED');
    expect(b1.errorMessage).toBe('Step Escape failed: The pipeline work dir points outside the repository');
    expect(await logsOf('alice', up.pipelineId, b1.id, 'Escape')).not.toContain('escaped-to');

    // app -> /: a link committed in the repository, used as the work dir
    const linked = await pipelineOf('alice', 'linked', { 'README.md': 'x' }, { workDir: 'app' });
    commitSymlink(linked.bare, 'app', '/');
    expect((await api('alice', 'PUT', `/pipelines/${linked.pipelineId}/spec`, { gantryYaml: spec })).statusCode).toBe(200);
    const b2 = await run('alice', linked.pipelineId);
    expect(b2.status).toBe('FAILED');
    expect(b2.errorMessage).toBe('Step Escape failed: The pipeline work dir points outside the repository');
    expect(await logsOf('alice', linked.pipelineId, b2.id, 'Escape')).not.toContain('escaped-to');
    expect(fs.existsSync('/pwned-by-workdir')).toBe(false);
  });

  it("a build of one project cannot push to another project's registry nor deploy to its cluster, named in its spec", async () => {
    const registryPassword = `alice-registry-${rand()}`;
    const clusterToken = `alice-cluster-${rand()}`;
    const seal = (v: string) => t.app.services.secrets.seal(v);
    const db = t.app.services.database.db;
    await db.insert(dockerRegistries).values({
      projectId: users.alice.projectId,
      name: 'alice-registry',
      provider: 'dockerhub',
      credentials: { docker_username: 'alice' },
      secretsSealed: seal(JSON.stringify({ docker_password: registryPassword })),
    });
    await db
      .insert(kubernetesClusters)
      .values({ projectId: users.alice.projectId, name: 'alice-cluster', endpoint: 'https://127.0.0.1:1', tokenSealed: seal(clusterToken) });
    const push = await pipelineOf('bob', 'push-to-alice', {
      'gantry.yaml': 'steps:\n  Clone:\n    type: git-clone\n  Push:\n    type: docker-push\n    image_name: web\n    registry: alice-registry\n',
      Dockerfile: 'FROM scratch\nCOPY Dockerfile /\n',
    });
    const pushed = await run('bob', push.pipelineId);
    expect(pushed.status).toBe('FAILED');
    expect(pushed.errorMessage).toBe('Step Push failed: Docker registry not found');
    const deploy = await pipelineOf('bob', 'deploy-to-alice', {
      'gantry.yaml': 'steps:\n  Ship:\n    type: deploy\n    target: kubernetes\n    cluster: alice-cluster\n    namespace: default\n    service: web\n',
    });
    const deployed = await run('bob', deploy.pipelineId);
    expect(deployed.status).toBe('FAILED');
    expect(deployed.errorMessage).toMatch(/^Step Ship failed: .*not found/);
    for (const [b, pipelineId, step] of [
      [pushed, push.pipelineId, 'Push'],
      [deployed, deploy.pipelineId, 'Ship'],
    ] as const) {
      const log = await logsOf('bob', pipelineId, b.id, step);
      expect(log).not.toContain(registryPassword);
      expect(log).not.toContain(clusterToken);
    }
  });

  it("downloads a JSON artifact whatever its name's characters, and its name cannot add a header", async () => {
    const name = 'отчёт "q";x.json';
    const { pipelineId } = await pipelineOf('alice', 'named', {
      'gantry.yaml': scriptSpec('named.sh', `    artifacts:\n      json: '${name}'\n`),
      'named.sh': `printf '{"ok":true}' > '${name.replace(/'/g, "'\\''")}'\n`,
    });
    const build = await run('alice', pipelineId);
    expect(build.status, build.errorMessage).toBe('SUCCEEDED');
    const [artifact] = build.steps.find((s: { name: string }) => s.name === 'Attack').artifacts as { id: string; name: string }[];
    expect(artifact!.name).toBe(name);
    const res = await api('alice', 'GET', `/pipelines/${pipelineId}/builds/${build.id}/artifacts/${artifact!.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    // RFC 6266: an ASCII fallback, and the real name UTF-8 encoded
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="_____ _q__x.json"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`,
    );
  });

  it('masks a sensitive variable printed raw, base64, base64url, hex and URL-encoded', async () => {
    const secret = `S3cr/${rand()}+p@ss=&x y`;
    const script = `urlenc() { local s="$1" i c; for ((i=0; i<\${#s}; i++)); do c=\${s:i:1}; case "$c" in [a-zA-Z0-9.~_-]) printf %s "$c";; *) printf '%%%02X' "'$c";; esac; done; }
printf 'raw=%s\\n' "$SECRET"
printf 'b64=%s\\n' "$(printf %s "$SECRET" | base64 -w0)"
printf 'b64url=%s\\n' "$(printf %s "$SECRET" | basenc --base64url -w0)"
printf 'hex=%s\\n' "$(printf %s "$SECRET" | od -An -tx1 | tr -d ' \\n')"
printf 'HEX=%s\\n' "$(printf %s "$SECRET" | od -An -tx1 | tr -d ' \\n' | tr a-f A-F)"
printf 'url=%s\\n' "$(urlenc "$SECRET")"
printf 'shifted=%s\\n' "$(printf 'ab%s' "$SECRET" | base64 -w0)"
printf 'inline=before-%s-after\\n' "$SECRET"
`;
    const { pipelineId } = await pipelineOf(
      'alice',
      'masked',
      { 'gantry.yaml': scriptSpec('mask.sh'), 'mask.sh': script },
      {
        environmentVariables: [{ key: 'SECRET', value: secret, sensitive: true }],
      },
    );
    const build = await run('alice', pipelineId);
    expect(build.status, build.errorMessage).toBe('SUCCEEDED');
    const log = await logsOf('alice', pipelineId, build.id, 'Attack');
    const bytes = Buffer.from(secret);
    const forms = {
      raw: secret,
      b64: bytes.toString('base64').replace(/=+$/, ''),
      b64url: bytes.toString('base64url'),
      hex: bytes.toString('hex'),
      HEX: bytes.toString('hex').toUpperCase(),
      url: encodeURIComponent(secret),
      shifted: Buffer.from(`ab${secret}`).toString('base64').replace(/=+$/, ''),
    };
    for (const [name, value] of Object.entries(forms)) {
      expect(log, name).not.toContain(value);
      // each line was printed, and its secret part masked
      expect(log, name).toMatch(new RegExp(`^${name}=.{0,4}\\*\\*\\*\\*`, 'm'));
    }
    expect(log).toContain('inline=before-****-after');
    // what is stored in the database is the masked text too
    const stored = await t.app.services.database.executeSql(`select string_agg(text, '') as t from build_logs where build_id = '${build.id}'`);
    for (const value of Object.values(forms)) expect(String(stored.rows[0]?.t ?? '')).not.toContain(value);
    expect(String(stored.rows[0]?.t ?? '')).toContain('****');
  });

  it('masks a secret whose line comes in pieces (writes apart in time, past a pipe buffer, on stderr), each line of a key of several lines, and its wrapped base64', async () => {
    const secret = `Sp1it-${rand()}-${rand()}`;
    const key = [
      '-----BEGIN OPENSSH PRIVATE KEY-----',
      `b3BlbnNzaC1rZXktdjEAAAAA${rand()}${rand()}AAAAEbm9uZQ`,
      `QyNTUxOQAAACBx7n${rand()}`,
      '-----END OPENSSH PRIVATE KEY-----',
    ].join('\n');
    const script = `printf 'slow=%s' "\${SECRET:0:7}"; sleep 0.3; printf '%s\\n' "\${SECRET:7}"
printf 'err=%s' "\${SECRET:0:9}" >&2; sleep 0.3; printf '%s\\n' "\${SECRET:9}" >&2
# a line of 70,000 characters: the pipe hands it over in 64 KiB pieces, the secret astride the first boundary
printf 'long=%s%s%s\\n' "$(head -c 65530 /dev/zero | tr '\\0' x)" "$SECRET" "$(head -c 4400 /dev/zero | tr '\\0' y)"
printf '%s\\n' "$KEY"
printf '%s' "$KEY" | base64
printf 'done\\n'
`;
    const { pipelineId } = await pipelineOf(
      'alice',
      'pieces',
      { 'gantry.yaml': scriptSpec('pieces.sh'), 'pieces.sh': script },
      {
        environmentVariables: [
          { key: 'SECRET', value: secret, sensitive: true },
          { key: 'KEY', value: key, sensitive: true },
        ],
      },
    );
    const build = await run('alice', pipelineId);
    expect(build.status, build.errorMessage).toBe('SUCCEEDED');
    const log = await logsOf('alice', pipelineId, build.id, 'Attack');
    expect(log).toContain('done');
    expect(log).toMatch(/^slow=\*\*\*\*$/m);
    expect(log).toMatch(/^err=\*\*\*\*$/m);
    expect(log).toMatch(/^long=x{65530}\*\*\*\*y{4400}$/m);
    for (const piece of [secret, secret.slice(0, 7), secret.slice(7), secret.slice(9)]) expect(log).not.toContain(piece);
    for (const line of key.split('\n')) expect(log).not.toContain(line);
    const wrapped = Buffer.from(key)
      .toString('base64')
      .match(/.{1,76}/g)!;
    for (const line of wrapped) if (line.replace(/=+$/, '').length >= 6) expect(log).not.toContain(line);
    expect(log.split('\n').filter((l) => l === '****').length).toBeGreaterThanOrEqual(key.split('\n').length + wrapped.length - 1);
  });
});
