import fs from 'node:fs';
import path from 'node:path';
import { GANTRY_IMAGE_LABELS, type ContainerScan } from '@gantry/contracts';
import { runProcess } from '../../integrations/executor/local-executor.js';
import { loopbackPortsOf } from '../../integrations/executor/box-network.js';
import { limitHit } from '../../integrations/executor/box-limits.js';
import { resolveInside, readFileInside, removeTree, writeFileNoFollow } from '../../integrations/executor/workspace-files.js';
import { BUILDAH_MISSING, RUN_NOT_SUPPORTED, buildahBin, buildahDirs, prepareBuildah } from '../../integrations/buildah/buildah.js';
import { authFileContent, checkImageName, dockerfileInstructions, imageReference, imageTag, repositoryOf } from '../../integrations/buildah/image-ref.js';
import { containerScanReport, scannerCommand } from '../../integrations/scanners/container-scan.js';
import type { RegistryPushTarget } from '../registries/registries.port.js';
import { SANDBOX_PATH, sourceDir, workDir, type StepContext } from './step-handlers.js';
import { stepSegment } from './step-segment.js';

/** What a docker-push step records on itself (`reports.image`), for the UI and deploys. */
export interface PushedImage {
  reference: string;
  digest: string;
  registry: string;
  repository: string;
  tag: string;
}

export const NO_REGISTRIES = "The docker-push step needs the project's Docker registries, which this Gantry server does not offer (no registries module)";

/** buildah's rootless warnings about /etc/subuid: expected in the sandbox (one uid mapped), noise in a user's log. */
const NOISE = /level=warning msg="(Reading allowed ID mappings|Found no [UG]ID ranges set aside)/;

let toldServer = false;

interface DockerPushConfig {
  image_name: string;
  tag?: string;
  registry?: string;
  dockerfile?: string;
  context?: string;
}

export async function dockerPush(ctx: StepContext) {
  const cfg = ctx.step.config as unknown as DockerPushConfig;
  if (!ctx.registries) throw new Error(NO_REGISTRIES);
  const bin = buildahBin();
  if (!bin) {
    if (!toldServer) ctx.warnServer(BUILDAH_MISSING);
    toldServer = true;
    throw new Error(BUILDAH_MISSING);
  }
  const imageName = checkImageName(ctx.resolve(cfg.image_name));
  const tag = imageTag(cfg.tag === undefined ? undefined : ctx.resolve(cfg.tag), ctx.build.commitSha);

  // the context and the Dockerfile are relative to the pipeline's work dir, and must stay in the checkout
  const src = sourceDir(ctx);
  const cwd = workDir(ctx);
  const contextArg = ctx.resolve(cfg.context ?? '.');
  const context = resolveInside(src, cwd, contextArg);
  if (!context || !fs.statSync(context, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`The build context ${contextArg} is not a folder of the repository`);
  const dockerfileArg = ctx.resolve(cfg.dockerfile ?? 'Dockerfile');
  const dockerfile = resolveInside(src, cwd, dockerfileArg);
  if (!dockerfile || !fs.statSync(dockerfile, { throwIfNoEntry: false })?.isFile())
    throw new Error(`The Dockerfile ${dockerfileArg} was not found in the repository`);
  if (!ctx.sandbox.containerBuilds && dockerfileInstructions(readFileInside(src, dockerfile).toString('utf8')).includes('RUN'))
    throw new Error(RUN_NOT_SUPPORTED);

  const target = await ctx.registries.pushTarget(ctx.build.projectId, cfg.registry ? ctx.resolve(cfg.registry) : null);
  ctx.addSecret(target.password);
  const repository = repositoryOf({ repositoryPrefix: target.repositoryPrefix, imageName });
  const reference = imageReference({ host: target.host, repositoryPrefix: target.repositoryPrefix, imageName, tag });

  // the step's own folder: outside the workspace, in the server's folder of the build, which the box
  // shows read-only — this one writable; 0700 and the sandbox uid's; removed whatever happens
  const dirs = buildahDirs(path.join(ctx.scriptsDir, `image-${stepSegment(ctx.step.name)}`));
  await removeTree(dirs.dir);
  try {
    const b = prepareBuildah(dirs, ctx.sandbox.uid);
    ctx.sandbox.handOver(dirs.dir);
    const run = async (what: string, args: string[]) => {
      let lastError = '';
      const code = await runProcess(bin, args, {
        cwd: context,
        env: { PATH: SANDBOX_PATH, LANG: process.env.LANG ?? 'C.UTF-8', ...b.env },
        signal: ctx.signal,
        onLine: (line, stream) => {
          if (NOISE.test(line)) return;
          if (stream === 'stderr' && /^Error: |level=(error|fatal)/.test(line)) lastError = line.replace(/^Error: /, '');
          ctx.log(line);
        },
        box: {
          sandbox: ctx.sandbox,
          run: {
            mounts: [{ path: ctx.workspace, writable: true }, { path: ctx.scriptsDir }, { path: dirs.dir, writable: true }],
            files: b.files,
            containerBuilder: ctx.sandbox.containerBuilds,
            limits: ctx.boxLimits,
            // the registry it pushes to, when that is on the host's loopback (a local stand-in)
            loopbackPorts: loopbackPortsOf(target.host),
          },
        },
      });
      if (code !== 0) throw new Error(`${what} failed${lastError ? `: ${lastError}` : ` with exit code ${code}`}`);
    };

    const local = `localhost/gantry-build:${tag}`;
    const labels = imageLabels(ctx, new Date());
    ctx.log(
      `[gantry] building ${imageName}:${tag} from ${path.relative(src, dockerfile) || dockerfileArg} (context ${path.relative(src, context) || '.'}) with buildah, in the build sandbox`,
    );
    await run('buildah bud', [
      ...b.global,
      'bud',
      ...b.policy,
      '--isolation',
      'chroot',
      '--format',
      'docker',
      '--file',
      dockerfile,
      '--tag',
      local,
      ...Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]),
      context,
    ]);

    ctx.log(`[gantry] pushing ${reference}`);
    // the credentials go in a file only buildah in this step's box reads, never on a command line
    writeFileNoFollow(dirs.authFile, authFileContent(target.host, target.username, target.password));
    fs.chmodSync(dirs.authFile, 0o600);
    ctx.sandbox.handOver(dirs.authFile);
    try {
      await run('buildah push', [
        ...b.global,
        'push',
        ...b.policy,
        '--authfile',
        dirs.authFile,
        ...(target.tls ? [] : ['--tls-verify=false']),
        '--digestfile',
        dirs.digestFile,
        local,
        `docker://${reference}`,
      ]);
    } finally {
      fs.rmSync(dirs.authFile, { force: true });
    }
    const digest = fs.readFileSync(dirs.digestFile, 'utf8').trim();
    const image: PushedImage = { reference, digest, registry: target.registryName, repository, tag };
    ctx.log(`[gantry] pushed ${reference}@${digest}`);
    const reports: Record<string, unknown> = { image };
    const scan = await scanImage(ctx, { target, repository, digest, imageName, tag, local, run, dirs, bin });
    if (scan) reports.containerScan = scan;
    await ctx.store.updateStep(ctx.build.id, ctx.step.name, { reports });
  } finally {
    await removeTree(dirs.dir);
  }
}

/** The labels of GANTRY_IMAGE_LABELS: the commit, where it came from, and which build made the image. */
export function imageLabels(ctx: Pick<StepContext, 'build' | 'pipeline'>, created: Date): Record<string, string> {
  return {
    [GANTRY_IMAGE_LABELS.revision]: ctx.build.commitSha ?? '',
    [GANTRY_IMAGE_LABELS.created]: created.toISOString(),
    [GANTRY_IMAGE_LABELS.source]: ctx.pipeline.repositoryUrl,
    [GANTRY_IMAGE_LABELS.message]: ctx.build.commitMessage ?? '',
    [GANTRY_IMAGE_LABELS.author]: ctx.build.commitAuthor ?? '',
    [GANTRY_IMAGE_LABELS.avatar]: ctx.build.commitAvatar ?? '',
    [GANTRY_IMAGE_LABELS.pipeline]: ctx.pipeline.name,
    [GANTRY_IMAGE_LABELS.build]: ctx.build.id,
  };
}

/**
 * The image's scan: ECR's own when the registry has one, else CONTAINER_SCANNER's (in the sandbox,
 * on an OCI archive of the image), else none. A scan that fails is reported FAILED; the push stands.
 */
async function scanImage(
  ctx: StepContext,
  o: {
    target: RegistryPushTarget;
    repository: string;
    digest: string;
    imageName: string;
    tag: string;
    local: string;
    bin: string;
    run: (what: string, args: string[]) => Promise<void>;
    dirs: ReturnType<typeof buildahDirs>;
  },
): Promise<ContainerScan | null> {
  if (o.target.provider === 'Ecr') {
    const ecr = await ctx.registries!.registryScan(ctx.build.projectId, o.target.registryName, o.repository, o.digest).catch((err: Error) => {
      ctx.log(`[gantry] could not read the registry's scan: ${err.message}`);
      return null;
    });
    if (ecr) return ecr;
  }
  if (!ctx.containerScanner) return null;
  const scanner = scannerCommand(ctx.containerScanner, o.dirs.archive);
  try {
    ctx.log(`[gantry] scanning ${o.imageName}:${o.tag} with ${scanner.name}`);
    await o.run('buildah push to an archive', [...prepareArgs(o.dirs), 'push', o.local, `oci-archive:${o.dirs.archive}`]);
    const out: string[] = [];
    const group = ctx.boxLimits;
    const before = group?.events();
    const code = await runProcess(scanner.command, scanner.args, {
      cwd: o.dirs.dir,
      env: { PATH: SANDBOX_PATH, LANG: process.env.LANG ?? 'C.UTF-8', HOME: o.dirs.home, TMPDIR: o.dirs.tmp },
      signal: ctx.signal,
      onLine: (line, stream) => (stream === 'stdout' ? out.push(line) : ctx.log(line)),
      // in the build's group, as its other boxes: a scanner (or an image made to choke it) is held to the build's limits
      box: { sandbox: ctx.sandbox, run: { mounts: [{ path: o.dirs.dir, writable: true }], limits: ctx.boxLimits } },
    });
    // a limit the scan hit (the scanner OOM-killed, a fork refused) is the scan's: its report says which, and the step,
    // its push done, does not fail for it
    const after = group?.events();
    const hit = group && before && after ? limitHit(before, after, group.limits, 'the container scan') : null;
    if (hit) ctx.limitsReported?.(before!, after!);
    const report =
      code === 0 && !hit
        ? containerScanReport({ imageName: o.imageName, imageTag: o.tag, scanner: scanner.name, output: out.join('\n') })
        : containerScanReport({ imageName: o.imageName, imageTag: o.tag, scanner: scanner.name, error: hit ?? `${scanner.name} exited with code ${code}` });
    ctx.log(`[gantry] container scan ${report.status.toLowerCase()}: ${report.statusDescription}`);
    return report;
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    return containerScanReport({ imageName: o.imageName, imageTag: o.tag, scanner: scanner.name, error: (err as Error).message });
  }
}

const prepareArgs = (d: ReturnType<typeof buildahDirs>) => ['--root', d.storage, '--runroot', d.runroot, '--storage-driver', 'vfs'];
