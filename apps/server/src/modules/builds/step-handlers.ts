import fs from 'node:fs';
import path from 'node:path';
import type { ParsedSpec } from '@gantry/contracts';
import type { ArtifactStore } from '../../platform/artifacts.js';
import { runProcess } from '../../integrations/executor/local-executor.js';
import type { Sandbox } from '../../integrations/executor/sandbox.js';
import type { BoxRunner } from '../../integrations/executor/box-runner.js';
import { resolveInside, listFilesInside, globInside, readFileInside, writeFileNoFollow } from '../../integrations/executor/workspace-files.js';
import type { GitClientForBuilds } from '../pipelines/git-access.js';
import type { PipelineRow } from '../pipelines/pipelines.store.js';
import type { BuildsStore, BuildRow } from './builds.store.js';
import { terraformBuild, cfnComponent } from './component-packaging.js';
import { dockerPush } from './docker-push.js';
import { deployEnvironment, deployKubernetes, type ServiceDeploys } from './deploy-steps.js';
import { stepCache } from './build-cache.js';
import type { StepDockerBlock } from '@gantry/contracts';
import type { EnvironmentDeployRequest, EnvironmentDeployResult } from '../../platform/hooks.js';
import type { RegistriesPort } from '../registries/registries.port.js';
import { lazy } from '../../platform/lazy.js';
import { loopbackPortsOf } from '../../integrations/executor/box-network.js';
import { stepSegment } from './step-segment.js';
import type { BoxGroup, LimitEvents } from '../../integrations/executor/box-limits.js';

/** Loaded when a step first zips an artifact, not at start-up (issue 14). */
const loadArchiver = lazy(async () => (await import('archiver')).default);

export interface StepContext {
  build: BuildRow;
  pipeline: PipelineRow;
  step: ParsedSpec['steps'][number];
  workspace: string;
  /** The server's own folder for this build (step scripts), outside the workspace: read-only in the box. */
  scriptsDir: string;
  sandbox: Sandbox;
  /** The build's one box its shell steps run in, one after the other (absent: each command starts a box of its own). */
  shellBox?: () => BoxRunner;
  /** The group whose limits every box of the build runs under (box-limits.ts; absent: unsandboxed). */
  boxLimits?: BoxGroup;
  /**
   * Tells that a limit the group hit between `before` and `after` was the step's own to report (a container scan's,
   * which the scan's report says): the step does not fail for it.
   */
  limitsReported?: (before: LimitEvents, after: LimitEvents) => void;
  signal: AbortSignal;
  log: (line: string) => void;
  env: Record<string, string>;
  resolve: (text: string) => string;
  /** Placeholders resolved in every string of a value, map keys included (a step's config). */
  resolveValue: (value: unknown) => unknown;
  /** Placeholders in a shell command: values the shell would read as code become `${NAME}` references. */
  resolveCommand: (text: string) => string;
  git: { client: GitClientForBuilds; token: string };
  artifacts: ArtifactStore;
  store: BuildsStore;
  triggerPipeline: (name: string, branch: string) => Promise<BuildRow>;
  /** The project's registries (docker-push); absent when the server has no registries module. */
  registries?: RegistriesPort;
  /** CONTAINER_SCANNER: the command docker-push scans a built image with, or none. */
  containerScanner?: string;
  /** Masks a secret the step learns on its way (a registry password) in its log from now on. */
  addSecret: (secret: string) => void;
  /** Tells the server's own log (an admin's problem, like a missing Debian package). */
  warnServer: (message: string) => void;
  /** Where `cache: true` steps keep their dependency folders between builds (build-cache.ts). */
  cacheRoot: string;
  /** The project's services (Kubernetes deploy steps); absent when the server has no services module. */
  services?: ServiceDeploys;
  /** Deploys an environment through the deployments module and waits for its end (environment deploy steps). */
  deployEnvironment: (req: EnvironmentDeployRequest) => Promise<EnvironmentDeployResult>;
}

export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The environment a step's processes see: a clean base plus the pipeline's and Gantry's variables — never Gantry's own. */
function processEnv(ctx: StepContext, extra: Record<string, string> = {}): Record<string, string> {
  const home = path.join(ctx.workspace, '.home');
  return {
    PATH: ctx.sandbox.mode === 'none' ? (process.env.PATH ?? SANDBOX_PATH) : SANDBOX_PATH,
    HOME: home,
    TMPDIR: '/tmp',
    LANG: process.env.LANG ?? 'C.UTF-8',
    TERM: 'dumb',
    CI: 'true',
    GIT_TERMINAL_PROMPT: '0',
    ...ctx.env,
    ...extra,
  };
}

/** What a step's processes may touch: the build's workspace (read-write) and its scripts (read-only). */
export const stepMounts = (workspace: string, scriptsDir: string) => [{ path: workspace, writable: true }, { path: scriptsDir }];
/** A step's own box: it reaches the git provider the build clones from, when that is on the host's loopback (a local stand-in). */
const box = (ctx: StepContext, o: { offline?: boolean } = {}) => ({
  sandbox: ctx.sandbox,
  run: {
    mounts: stepMounts(ctx.workspace, ctx.scriptsDir),
    limits: ctx.boxLimits,
    ...(o.offline
      ? { offline: true }
      : { loopbackPorts: loopbackPortsOf(ctx.pipeline.repositoryUrl, ctx.git.client.cloneUrl(ctx.pipeline.repositoryUrl, ctx.git.token)) }),
  },
});

export const sourceDir = (ctx: StepContext) => path.join(ctx.workspace, 'src');
/**
 * Commands run in the pipeline's work dir inside the checkout: `../src2` or a link in the
 * repository must not lead out of it (compared by real paths).
 */
export function workDir(ctx: StepContext) {
  const dir = resolveInside(sourceDir(ctx), sourceDir(ctx), ctx.pipeline.workDir);
  if (!dir) throw new Error('The pipeline work dir points outside the repository');
  return dir;
}

async function exec(ctx: StepContext, cmd: string, args: string[], cwd: string, env: Record<string, string> = {}, o: { offline?: boolean } = {}) {
  const code = await runProcess(cmd, args, { cwd, env: processEnv(ctx, env), signal: ctx.signal, onLine: ctx.log, box: box(ctx, o) });
  if (code !== 0) throw new Error(`${cmd} ${args[0] ?? ''} exited with code ${code}`);
}

/**
 * The account's token reaches git through a credential helper reading it from git's own
 * environment: it is never in the remote URL, in `.git/config` or in any later step's environment.
 */
export function gitCredentials(cloneUrlWithToken: string) {
  const u = URL.canParse(cloneUrlWithToken) ? new URL(cloneUrlWithToken) : null;
  if (!u || (!u.username && !u.password)) return { url: cloneUrlWithToken, config: [] as string[], env: {} as Record<string, string> };
  const username = decodeURIComponent(u.username);
  const password = decodeURIComponent(u.password);
  u.username = '';
  u.password = '';
  const helper = '!f() { test "$1" = get && printf \'username=%s\\npassword=%s\\n\' "$GANTRY_GIT_USERNAME" "$GANTRY_GIT_PASSWORD"; }; f';
  return {
    url: u.toString(),
    config: ['-c', 'credential.helper=', '-c', `credential.helper=${helper}`],
    env: { GANTRY_GIT_USERNAME: username, GANTRY_GIT_PASSWORD: password },
  };
}

async function gitClone(ctx: StepContext) {
  const { build, pipeline, git } = ctx;
  const depth = Number((ctx.step.config as { depth?: number }).depth ?? 50);
  const auth = gitCredentials(git.client.cloneUrl(pipeline.repositoryUrl, git.token));
  const dir = sourceDir(ctx);
  fs.rmSync(dir, { recursive: true, force: true });
  ctx.log(`Cloning ${pipeline.repositoryFullName} (${build.branch} @ ${(build.commitSha ?? '').slice(0, 7)})`);
  await exec(
    ctx,
    'git',
    [...auth.config, 'clone', '--depth', String(depth), '--branch', build.branch, '--single-branch', '--', auth.url, dir],
    ctx.workspace,
    auth.env,
  );
  if (build.commitSha) {
    const has = await runProcess('git', ['cat-file', '-e', `${build.commitSha}^{commit}`], {
      cwd: dir,
      env: processEnv(ctx),
      signal: ctx.signal,
      onLine: () => undefined,
      box: box(ctx, { offline: true }),
    });
    if (has !== 0) await exec(ctx, 'git', [...auth.config, 'fetch', '--depth', '1', 'origin', build.commitSha], dir, auth.env);
    await exec(ctx, 'git', ['-c', 'advice.detachedHead=false', 'checkout', '--detach', build.commitSha], dir, {}, { offline: true });
  }
  ctx.log(`Checked out ${build.commitSha ?? build.branch}`);
}

/**
 * A build step: its kept dependency folders back (`cache`), its commands in bash, stopping at the
 * first failure, its artifacts, the folders kept again; then the image of its `docker` block built
 * and pushed exactly as a docker-push step would.
 */
async function buildStep(ctx: StepContext) {
  const cwd = workDir(ctx);
  const cache =
    ctx.step.config.cache === true
      ? stepCache({
          cacheRoot: ctx.cacheRoot,
          pipelineId: ctx.pipeline.id,
          step: ctx.step.name,
          workspace: fs.realpathSync(ctx.workspace),
          workDir: cwd,
          home: path.join(ctx.workspace, '.home'),
        })
      : null;
  if (cache) {
    const restored = cache.restore();
    ctx.sandbox.handOver(...restored.map((label) => cachePath(ctx, cwd, label)));
    ctx.log(restored.length ? `[gantry] cache restored: ${restored.join(', ')}` : '[gantry] cache: nothing kept yet');
  }
  await runCommands(ctx, cwd);
  await collectArtifacts(ctx, cwd);
  if (cache) {
    const saved = await cache.save();
    ctx.log(saved.length ? `[gantry] cache saved: ${saved.join(', ')}` : '[gantry] cache: no dependency folder to keep');
  }
  const docker = ctx.step.config.docker as StepDockerBlock | undefined;
  if (docker) await dockerPush({ ...ctx, step: { ...ctx.step, config: { ...docker } } });
}

/** Where a restored folder is, from the label the cache gives it ('~/.npm' is in the step's home). */
const cachePath = (ctx: StepContext, cwd: string, label: string) =>
  label.startsWith('~/') ? path.join(ctx.workspace, '.home', label.slice(2)) : path.join(cwd, label);

async function runCommands(ctx: StepContext, cwd: string) {
  if (!ctx.step.commands.length) return;
  const commands = ctx.step.commands.map(ctx.resolveCommand);
  if (ctx.step.image) ctx.log(`[gantry] image ${ctx.step.image} (the local executor runs commands in the Gantry sandbox)`);
  const script = [
    'set -eo pipefail',
    // mkdir only when the work dir is not there yet: a fork and an exec less per step
    `cd -- ${shellQuote(cwd)} 2> /dev/null || { mkdir -p -- ${shellQuote(cwd)} && cd -- ${shellQuote(cwd)}; }`,
    `trap 'echo "[gantry] command failed: $BASH_COMMAND" >&2' ERR`,
    ...commands.flatMap((c) => [`printf '%s\\n' ${shellQuote(`$ ${c}`)}`, c]),
  ].join('\n');
  // the script lives in the server's own folder: the workspace is the step's, and a link left there must not redirect this write
  const scriptFile = path.join(ctx.scriptsDir, `${stepSegment(ctx.step.name)}.sh`);
  writeFileNoFollow(scriptFile, script);
  const run = { cwd: ctx.workspace, env: processEnv(ctx), signal: ctx.signal, onLine: ctx.log };
  const code = ctx.shellBox ? await ctx.shellBox().run(scriptFile, run) : await runProcess('bash', [scriptFile], { ...run, box: box(ctx) });
  if (code !== 0) throw new Error(`Command failed with exit code ${code}`);
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

async function collectArtifacts(ctx: StepContext, cwd: string) {
  const spec = ctx.step.artifacts;
  if (!spec) return;
  const prefix = `pipelines/${ctx.pipeline.id}/${ctx.build.id}/${stepSegment(ctx.step.name)}`;
  for (const [name, paths] of Object.entries(spec.files ?? {})) {
    const { stream, count } = await zipPaths(ctx, cwd, paths.map(ctx.resolve));
    const location = `${prefix}/${name}.zip`;
    const { size } = await ctx.artifacts.put(location, stream);
    if (count() === 0) throw new Error(`Artifact ${name}: no files matched ${paths.join(', ')}`);
    await ctx.store.addArtifact({ buildId: ctx.build.id, step: ctx.step.name, kind: 'files', name, location, files: count(), size });
    const files = count();
    ctx.log(`[gantry] artifact ${name}.zip: ${files} file${files === 1 ? '' : 's'}, ${size} bytes`);
  }
  if (spec.json) {
    const file = resolveInside(ctx.workspace, cwd, ctx.resolve(spec.json));
    if (!file || !fs.existsSync(file)) throw new Error(`JSON artifact ${spec.json} was not found`);
    const text = readFileInside(ctx.workspace, file).toString('utf8');
    try {
      JSON.parse(text);
    } catch {
      throw new Error(`JSON artifact ${spec.json} is not valid JSON`);
    }
    const location = `${prefix}/${path.basename(file)}`;
    const { size } = await ctx.artifacts.put(location, text);
    await ctx.store.addArtifact({ buildId: ctx.build.id, step: ctx.step.name, kind: 'json', name: path.basename(file), location, files: 1, size });
    ctx.log(`[gantry] json artifact ${path.basename(file)}: ${size} bytes`);
  }
}

/**
 * Zips paths relative to cwd: a folder whole, a file as is, anything else as a glob. Only files
 * whose real paths are inside the workspace: a link out of it is skipped and said in the log.
 */
async function zipPaths(ctx: StepContext, cwd: string, paths: string[]) {
  const archive = (await loadArchiver())('zip', { zlib: { level: 6 } });
  let count = 0;
  archive.on('entry', (e) => {
    if (!e.name.endsWith('/')) count++;
  });
  const skipped: string[] = [];
  for (const p of paths) {
    const clean = p.replace(/^\.\//, '').replace(/\/$/, '');
    const full = resolveInside(ctx.workspace, cwd, clean);
    if (!full) {
      skipped.push(p);
      continue;
    }
    const st = fs.existsSync(full) ? fs.statSync(full) : null;
    const found = st?.isDirectory()
      ? listFilesInside(ctx.workspace, full)
      : st?.isFile()
        ? { files: [{ abs: fs.realpathSync(full), rel: '' }], skipped: [] }
        : globInside(ctx.workspace, cwd, clean);
    skipped.push(...found.skipped);
    const prefix = st?.isDirectory() && clean !== '' && clean !== '.' ? `${clean}/` : '';
    for (const f of found.files) archive.file(f.abs, { name: st?.isFile() ? clean : `${prefix}${f.rel}` });
  }
  if (skipped.length) ctx.log(`[gantry] left out of the artifact (outside the workspace): ${skipped.join(', ')}`);
  void archive.finalize();
  return { stream: archive, count: () => count };
}

async function triggerPipeline(ctx: StepContext) {
  const cfg = ctx.step.config as { pipeline: string; branch?: string };
  const started = await ctx.triggerPipeline(ctx.resolve(cfg.pipeline), ctx.resolve(cfg.branch ?? ctx.build.branch));
  ctx.log(`Triggered pipeline ${cfg.pipeline}: build #${started.number} (${started.id}) on ${started.branch}`);
}

export async function runStep(ctx: StepContext) {
  switch (ctx.step.type) {
    case 'git-clone':
      return gitClone(ctx);
    case 'build':
      return buildStep(ctx);
    case 'trigger-pipeline':
      return triggerPipeline(ctx);
    case 'terraform-build':
      return terraformBuild(ctx);
    case 'cfn-component':
      return cfnComponent(ctx);
    case 'docker-push':
      return dockerPush(ctx);
    case 'deploy':
      return ctx.step.config.target === 'environment' ? deployEnvironment(ctx) : deployKubernetes(ctx);
    default:
      throw new Error(`The ${ctx.step.type} step is not available in this version of Gantry yet`);
  }
}
