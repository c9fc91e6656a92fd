import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';

/**
 * Debian's buildah, as a `docker-push` step runs it inside the build sandbox (DESIGN §5):
 *  - as the sandbox uid, rootless: buildah re-execs itself in a user namespace of its own where that
 *    uid is root (one uid mapped: no /etc/subuid range, no setuid newuidmap — no_new_privs stops it);
 *  - with storage of its own (`--root`/`--runroot`, the `vfs` driver: no overlay or fuse mounts) in
 *    the step's private folder, outside the workspace, removed after the step;
 *  - `--isolation chroot`, HOME, XDG_RUNTIME_DIR and TMPDIR in that folder (the box's /tmp is root's);
 *  - an /etc/passwd naming the sandbox uid shown over the box's (buildah looks itself up).
 * When Gantry runs as root, every buildah call is a `containerBuilder` run instead (sandbox.ts): root
 * of a user namespace of its own, which is what buildah's chroot runtime needs for RUN instructions.
 * An unprivileged Gantry refuses RUN before building (rootless, buildah's chroot runtime re-execs
 * itself with an empty environment and cannot load its configuration, and cannot set groups).
 */
export const BUILDAH_MISSING =
  'The docker-push step needs buildah (Debian package "buildah": apt-get install buildah), which is not installed on this Gantry server.';
export const RUN_NOT_SUPPORTED =
  'RUN instructions need the Gantry server to run as root: it gives each image build a user namespace of its own inside the build sandbox, which an unprivileged server cannot. ' +
  'Build what RUN would make in an earlier build step and COPY it into the image (COPY, ADD, ENV, LABEL, WORKDIR, USER, EXPOSE, ENTRYPOINT and CMD work).';

let found: { bin: string | null } | undefined;
/** The buildah binary, or null when it is not installed (looked for once). */
export function buildahBin(): string | null {
  if (found) return found.bin;
  const bin = process.env.BUILDAH_BIN ?? 'buildah';
  const r = spawnSync(bin, ['--version'], { stdio: 'ignore', timeout: 10_000, env: { PATH: '/usr/local/bin:/usr/bin:/bin' } });
  return (found = { bin: r.error || r.status !== 0 ? null : bin }).bin;
}

/** The files and folders of one step's buildah run, all in `dir` (0700, the sandbox uid's). */
export function buildahDirs(dir: string) {
  return {
    dir,
    storage: path.join(dir, 'storage'),
    runroot: path.join(dir, 'run'),
    home: path.join(dir, 'home'),
    xdgRuntime: path.join(dir, 'xdg'),
    tmp: path.join(dir, 'tmp'),
    authFile: path.join(dir, 'auth.json'),
    digestFile: path.join(dir, 'digest'),
    policyFile: path.join(dir, 'policy.json'),
    passwd: path.join(dir, 'passwd'),
    group: path.join(dir, 'group'),
    archive: path.join(dir, 'image.tar'),
  };
}
export type BuildahDirs = ReturnType<typeof buildahDirs>;

const SYSTEM_POLICY = '/etc/containers/policy.json';

/** Makes the private folder and what buildah needs in it. Returns the extra options of every buildah call. */
export function prepareBuildah(d: BuildahDirs, uid: number) {
  fs.mkdirSync(d.dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(d.dir, 0o700);
  for (const sub of [d.storage, d.runroot, d.home, d.xdgRuntime, d.tmp]) fs.mkdirSync(sub, { mode: 0o700 });
  fs.writeFileSync(
    d.passwd,
    `root:x:0:0:root:/root:/usr/sbin/nologin\ngantry:x:${uid}:${uid}:Gantry build:${d.home}:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n`,
    { mode: 0o644 },
  );
  fs.writeFileSync(d.group, `root:x:0:\ngantry:x:${uid}:\nnogroup:x:65534:\n`, { mode: 0o644 });
  const policy: string[] = [];
  if (!fs.existsSync(SYSTEM_POLICY)) {
    fs.writeFileSync(d.policyFile, JSON.stringify({ default: [{ type: 'insecureAcceptAnything' }] }), { mode: 0o644 });
    policy.push('--signature-policy', d.policyFile);
  }
  return {
    global: ['--root', d.storage, '--runroot', d.runroot, '--storage-driver', 'vfs'],
    policy,
    env: { HOME: d.home, XDG_RUNTIME_DIR: d.xdgRuntime, TMPDIR: d.tmp, BUILDAH_ISOLATION: 'chroot', STORAGE_DRIVER: 'vfs' },
    files: [
      { source: d.passwd, target: '/etc/passwd' },
      { source: d.group, target: '/etc/group' },
    ],
  };
}
