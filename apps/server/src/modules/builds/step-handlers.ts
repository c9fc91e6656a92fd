import fs from 'node:fs';
import path from 'node:path';
import archiver from 'archiver';
import type { ParsedSpec } from '@gantry/contracts';
import type { ArtifactStore } from '../../platform/artifacts.js';
import { runProcess } from '../../integrations/executor/local-executor.js';
import type { GitClientForBuilds } from '../pipelines/git-access.js';
import type { PipelineRow } from '../pipelines/pipelines.store.js';
import type { BuildsStore, BuildRow } from './builds.store.js';
import { terraformBuild, cfnComponent } from './component-packaging.js';

export interface StepContext {
  build: BuildRow;
  pipeline: PipelineRow;
  step: ParsedSpec['steps'][number];
  workspace: string;
  signal: AbortSignal;
  log: (line: string) => void;
  env: Record<string, string>;
  resolve: (text: string) => string;
  git: { client: GitClientForBuilds; token: string };
  artifacts: ArtifactStore;
  store: BuildsStore;
  triggerPipeline: (name: string, branch: string) => Promise<BuildRow>;
}

/** The environment a step's processes see: a clean base plus the pipeline's and Gantry's variables — never Gantry's own secrets. */
function processEnv(ctx: StepContext): Record<string, string> {
  const home = path.join(ctx.workspace, '.home');
  fs.mkdirSync(home, { recursive: true });
  return {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    LANG: process.env.LANG ?? 'C.UTF-8',
    TERM: 'dumb',
    CI: 'true',
    GIT_TERMINAL_PROMPT: '0',
    ...ctx.env,
  };
}

const sourceDir = (ctx: StepContext) => path.join(ctx.workspace, 'src');
/** Commands run in the pipeline's work dir inside the checkout. */
function workDir(ctx: StepContext) {
  const dir = path.resolve(sourceDir(ctx), ctx.pipeline.workDir.replace(/^\/+/, ''));
  if (!dir.startsWith(sourceDir(ctx))) throw new Error('The pipeline work dir points outside the repository');
  return dir;
}

async function exec(ctx: StepContext, cmd: string, args: string[], cwd: string) {
  const code = await runProcess(cmd, args, { cwd, env: processEnv(ctx), signal: ctx.signal, onLine: ctx.log });
  if (code !== 0) throw new Error(`${cmd} ${args[0] ?? ''} exited with code ${code}`);
}

async function gitClone(ctx: StepContext) {
  const { build, pipeline, git } = ctx;
  const depth = Number((ctx.step.config as { depth?: number }).depth ?? 50);
  const url = git.client.cloneUrl(pipeline.repositoryUrl, git.token);
  const dir = sourceDir(ctx);
  fs.rmSync(dir, { recursive: true, force: true });
  ctx.log(`Cloning ${pipeline.repositoryFullName} (${build.branch} @ ${(build.commitSha ?? '').slice(0, 7)})`);
  await exec(ctx, 'git', ['clone', '--depth', String(depth), '--branch', build.branch, '--single-branch', url, dir], ctx.workspace);
  if (build.commitSha) {
    const has = await runProcess('git', ['cat-file', '-e', `${build.commitSha}^{commit}`], { cwd: dir, env: processEnv(ctx), signal: ctx.signal, onLine: () => undefined });
    if (has !== 0) await exec(ctx, 'git', ['fetch', '--depth', '1', 'origin', build.commitSha], dir);
    await exec(ctx, 'git', ['-c', 'advice.detachedHead=false', 'checkout', '--detach', build.commitSha], dir);
  }
  ctx.log(`Checked out ${build.commitSha ?? build.branch}`);
}

/** A plain build step: its commands in bash, stopping at the first failure, then its artifacts. */
async function buildStep(ctx: StepContext) {
  const cwd = workDir(ctx);
  fs.mkdirSync(cwd, { recursive: true });
  const commands = ctx.step.commands.map(ctx.resolve);
  if (ctx.step.image) ctx.log(`[gantry] image ${ctx.step.image} (the local executor runs commands on the Gantry host)`);
  const script = [
    'set -eo pipefail',
    `trap 'echo "[gantry] command failed: $BASH_COMMAND" >&2' ERR`,
    ...commands.flatMap((c) => [`printf '%s\\n' ${shellQuote(`$ ${c}`)}`, c]),
  ].join('\n');
  const scriptFile = path.join(ctx.workspace, '.gantry', `${ctx.step.name.replace(/[^\w.-]/g, '_')}.sh`);
  fs.mkdirSync(path.dirname(scriptFile), { recursive: true });
  fs.writeFileSync(scriptFile, script);
  const code = await runProcess('bash', [scriptFile], { cwd, env: processEnv(ctx), signal: ctx.signal, onLine: ctx.log });
  if (code !== 0) throw new Error(`Command failed with exit code ${code}`);
  await collectArtifacts(ctx, cwd);
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

async function collectArtifacts(ctx: StepContext, cwd: string) {
  const spec = ctx.step.artifacts;
  if (!spec) return;
  const prefix = `pipelines/${ctx.pipeline.id}/${ctx.build.id}/${ctx.step.name.replace(/[^\w.-]/g, '_')}`;
  for (const [name, paths] of Object.entries(spec.files ?? {})) {
    const { stream, count } = zipPaths(cwd, paths.map(ctx.resolve));
    const location = `${prefix}/${name}.zip`;
    const { size } = await ctx.artifacts.put(location, stream);
    if (count() === 0) throw new Error(`Artifact ${name}: no files matched ${paths.join(', ')}`);
    await ctx.store.addArtifact({ buildId: ctx.build.id, step: ctx.step.name, kind: 'files', name, location, files: count(), size });
    ctx.log(`[gantry] artifact ${name}.zip: ${count()} files, ${size} bytes`);
  }
  if (spec.json) {
    const file = path.resolve(cwd, ctx.resolve(spec.json));
    if (!file.startsWith(cwd) || !fs.existsSync(file)) throw new Error(`JSON artifact ${spec.json} was not found`);
    const text = fs.readFileSync(file, 'utf8');
    try { JSON.parse(text); } catch { throw new Error(`JSON artifact ${spec.json} is not valid JSON`); }
    const location = `${prefix}/${path.basename(file)}`;
    const { size } = await ctx.artifacts.put(location, text);
    await ctx.store.addArtifact({ buildId: ctx.build.id, step: ctx.step.name, kind: 'json', name: path.basename(file), location, files: 1, size });
    ctx.log(`[gantry] json artifact ${path.basename(file)}: ${size} bytes`);
  }
}

/** Zips paths relative to cwd: a folder whole, a file as is, anything else as a glob. */
function zipPaths(cwd: string, paths: string[]) {
  const archive = archiver('zip', { zlib: { level: 6 } });
  let count = 0;
  archive.on('entry', (e) => { if (!e.name.endsWith('/')) count++; });
  for (const p of paths) {
    const clean = p.replace(/^\.\//, '');
    const full = path.resolve(cwd, clean);
    if (!full.startsWith(cwd)) continue;
    if (fs.existsSync(full) && fs.statSync(full).isDirectory()) archive.glob('**/*', { cwd: full, dot: true }, { prefix: clean === '' || clean === '.' || clean === './' ? '' : clean.replace(/\/$/, '') });
    else if (fs.existsSync(full)) archive.file(full, { name: clean });
    else archive.glob(clean, { cwd, dot: true });
  }
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
    case 'git-clone': return gitClone(ctx);
    case 'build': return buildStep(ctx);
    case 'trigger-pipeline': return triggerPipeline(ctx);
    case 'terraform-build': return terraformBuild(ctx);
    case 'cfn-component': return cfnComponent(ctx);
    default:
      throw new Error(`The ${ctx.step.type} step is not available in this version of Gantry yet`);
  }
}
