import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, bearer, until, type TestApp } from '../helpers.js';
import { createLocalGit } from '../local-git.js';
import { gitAccounts } from '../../src/modules/git-accounts/git-accounts.tables.js';

/**
 * A data dir inside a folder the sandbox shows read-only — `/opt/gantry/data`, where a package or
 * an image may well put it. The box sees /opt; it must still not see the data dir: not the key,
 * not another build's workspace (all workspaces belong to the one sandbox uid, so permissions do
 * not protect them), not another environment's terraform work dir. Needs a writable /opt (root, as CI).
 */
const optWritable = (() => {
  try {
    fs.accessSync('/opt', fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();
const rand = () => crypto.randomBytes(6).toString('hex');

let t: TestApp;
let git: ReturnType<typeof createLocalGit>;
let top: string;
let dataDir: string;

beforeAll(async () => {
  if (!optWritable) return;
  git = createLocalGit();
  top = fs.mkdtempSync('/opt/gantry-sectest-');
  fs.chmodSync(top, 0o755);
  dataDir = path.join(top, 'data');
  t = await createTestApp({ GANTRY_SECRET_KEY: '', GANTRY_DATA_DIR: dataDir }, { overrides: { pipelines: { gitAccess: git.access } } });
  fs.chmodSync(dataDir, 0o755);
  fs.chmodSync(path.join(dataDir, 'secret.key'), 0o644); // as readable as when the box runs as the server's own user
});
afterAll(async () => {
  await t?.close();
  git?.close();
  if (top) fs.rmSync(top, { recursive: true, force: true });
});

describe.skipIf(!optWritable)('a data dir under /opt', { timeout: 180_000 }, () => {
  it("is hidden from a build step: no key, no other build's workspace, no other environment's state", async () => {
    // what another project's running build and terraform run leave there, owned by the sandbox uid as the server hands them over
    const otherBuild = crypto.randomUUID();
    const otherStage = crypto.randomUUID();
    const buildSecret = `other-build-${rand()}`;
    const stateSecret = `other-state-${rand()}`;
    const otherWorkspace = path.join(dataDir, 'workspaces', otherBuild);
    const otherStageDir = path.join(dataDir, 'terraform', 'stages', otherStage);
    for (const [dir, file, text] of [
      [otherWorkspace, 'secret.txt', buildSecret],
      [otherStageDir, 'terraform.tfstate', stateSecret],
    ] as const) {
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, file), text, { mode: 0o600 });
      for (const p of [dir, path.join(dir, file)]) fs.chownSync(p, 64000, 64000);
    }
    const key = fs.readFileSync(path.join(dataDir, 'secret.key'), 'utf8').trim();

    const { idToken } = await registerUser(t, 'opt-sec@example.com');
    const projectId = await createProject(t, idToken, 'Opt');
    const [acc] = await t.app.services.database.db
      .insert(gitAccounts)
      .values({ projectId, type: 'github', accountName: 'o', externalId: 'o', accessTokenSealed: t.app.services.secrets.seal('local-token') })
      .returning();
    const script = `DATA='${dataDir}'
attempt() { local name="$1"; shift; if out=$("$@" 2>&1); then echo "ATTACK-OK $name"; else echo "ATTACK-FAILED $name"; fi; printf '%s\\n' "$out"; }
attempt read-key cat "$DATA/secret.key"
attempt read-other-build cat "$DATA/workspaces/${otherBuild}/secret.txt"
attempt write-other-build touch "$DATA/workspaces/${otherBuild}/pwned"
attempt read-other-state cat "$DATA/terraform/stages/${otherStage}/terraform.tfstate"
attempt read-artifacts ls "$DATA/artifacts"
echo "DATA-LS=$(ls -A "$DATA" | tr '\\n' ' ')"
echo "WORKSPACES-LS=$(ls -A "$DATA/workspaces" | tr '\\n' ' ')"
echo "OPT-LS=$(ls -A /opt | tr '\\n' ' ')"
`;
    const repo = git.createRepo('opt/probe', {
      'gantry.yaml': 'steps:\n  Clone:\n    type: git-clone\n  Attack:\n    commands:\n      - bash probe.sh\n',
      'probe.sh': script,
    });
    const base = `/ms-ap/projects/${projectId}/pipelines`;
    const created = await t.app.inject({
      method: 'POST',
      url: base,
      headers: bearer(idToken),
      payload: { name: 'probe', gitAccountId: acc!.id, repositoryUrl: repo.url, branchFilter: 'main', automatedTrigger: false },
    });
    expect(created.statusCode, created.body).toBe(201);
    const pipelineId = created.json().pipelineId;
    const buildId = (
      await t.app.inject({ method: 'POST', url: `${base}/${pipelineId}/builds`, headers: bearer(idToken), payload: { ref: 'refs/heads/main' } })
    ).json().buildId;
    const build = await until(
      async () => (await t.app.inject({ method: 'GET', url: `${base}/${pipelineId}/builds/${buildId}`, headers: bearer(idToken) })).json(),
      (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
      'the build',
    );
    expect(build.status, build.errorMessage).toBe('SUCCEEDED');
    const log = (await t.app.inject({ method: 'GET', url: `${base}/${pipelineId}/builds/${buildId}/steps/Attack/logs`, headers: bearer(idToken) }))
      .json()
      .chunks.map((c: { text: string }) => c.text)
      .join('\n');

    expect(Object.fromEntries([...log.matchAll(/^ATTACK-(OK|FAILED) (\S+)$/gm)].map((m) => [m[2], m[1]]))).toEqual({
      'read-key': 'FAILED',
      'read-other-build': 'FAILED',
      'write-other-build': 'FAILED',
      'read-other-state': 'FAILED',
      'read-artifacts': 'FAILED',
    });
    for (const s of [key, buildSecret, stateSecret]) expect(log).not.toContain(s);
    expect(fs.existsSync(path.join(otherWorkspace, 'pwned'))).toBe(false);
    // the box still shows /opt (the test's folder is there), but of the data dir only the way to its own workspace
    expect(/^OPT-LS=(.*)$/m.exec(log)?.[1]).toContain(path.basename(top));
    expect(/^DATA-LS=(.*)$/m.exec(log)?.[1]?.trim()).toBe('workspaces');
    expect(/^WORKSPACES-LS=(.*)$/m.exec(log)?.[1]?.trim().split(' ').sort()).toEqual([buildId, `${buildId}.gantry`]);
  });
});
