import fs from 'node:fs';
import path from 'node:path';
import type archiver from 'archiver';
import { COMPONENT_ARTIFACT, parseComponentSchemaText, type ParsedComponentSchema } from '@gantry/contracts';
import type { ArtifactStore } from '../../platform/artifacts.js';
import type { BuildsStore } from './builds.store.js';
import { resolveInside, readFileInside, listFilesInside } from '../../integrations/executor/workspace-files.js';
import type { StepContext } from './step-handlers.js';
import { lazy } from '../../platform/lazy.js';
import { stepSegment } from './step-segment.js';

// loaded when a component is first packed or unpacked, not at start-up (issue 14)
const loadArchiver = lazy(async () => (await import('archiver')).default);
const loadExtractZip = lazy(async () => (await import('extract-zip')).default);

/**
 * The `terraform-build` and `cfn-component` steps (a component version is a successful build of
 * its pipeline), and the read side other modules use to list and open those versions.
 *
 * Artifact format — each artifact step of a build leaves two artifacts (step = the step's name):
 *  - kind 'files', name `component`, `…/<step>/component.zip`: the module directory (Terraform:
 *    every file of `terraform_dir` except `.terraform/`, `*.tfstate*` and `.git/`) or, for
 *    CloudFormation, the template file, `schema.json` and the README when there is one — at the
 *    zip's root. Unzipped it is the `source` of a module block / the template of a stack.
 *  - kind 'json', name `component.json`, `…/<step>/component.json`: the manifest
 *    `{ format: 'gantry-component/1', tool, template, schema, readme, files }` — the raw schema.json
 *    document and the README text, so versions are read without unpacking.
 */
export const MANIFEST_FORMAT = 'gantry-component/1';
export interface ComponentManifest {
  format: typeof MANIFEST_FORMAT;
  tool: 'terraform' | 'cloudformation';
  /** CloudFormation: the template's file name at the zip's root; null for Terraform. */
  template: string | null;
  schema: unknown;
  readme: string | null;
  files: string[];
}

export class PackagingError extends Error {}

const README_NAMES = ['README.md', 'readme.md', 'Readme.md', 'README.MD', 'README'];
const EXCLUDED = ['.terraform/**', '**/.terraform/**', '*.tfstate', '*.tfstate.*', '**/*.tfstate', '**/*.tfstate.*', '.git/**', '.terraform.lock.hcl'];

/**
 * A path inside the checkout: relative to the pipeline's work dir, never outside the repository —
 * by its text or by a link (the server reads it with more rights than the build had).
 */
function insideCheckout(ctx: Pick<StepContext, 'workspace' | 'pipeline'>, rel: string, what: string) {
  const src = path.join(ctx.workspace, 'src');
  const base = resolveInside(src, src, ctx.pipeline.workDir);
  const full = base && resolveInside(src, base, rel);
  if (!full) throw new PackagingError(`The ${what} ${rel} points outside the repository`);
  return { full, shown: path.relative(src, full) || '.', src };
}

/** A file of the checkout, read only when its real path is inside the repository. */
function readInCheckout(src: string, file: string, shown: string) {
  try {
    return readFileInside(src, file).toString('utf8');
  } catch {
    throw new PackagingError(`${shown} points outside the repository`);
  }
}

function readSchema(src: string, dir: string, shownDir: string) {
  const file = path.join(dir, 'schema.json');
  if (!fs.existsSync(file)) throw new PackagingError(`schema.json was not found in ${shownDir}: a component needs the schema of its inputs and outputs`);
  const text = readInCheckout(src, file, path.join(shownDir, 'schema.json'));
  const { errors } = parseComponentSchemaText(text);
  if (errors.length)
    throw new PackagingError(errors[0]!.startsWith('schema.json') ? errors[0]! : `schema.json in ${shownDir} is invalid: ${errors.join('; ')}`);
  return { schema: JSON.parse(text) as unknown, text };
}

function readReadme(src: string, dir: string) {
  const name = README_NAMES.find((n) => fs.existsSync(path.join(dir, n)));
  return name ? { name, text: readInCheckout(src, path.join(dir, name), name) } : null;
}

/** Zips a folder (minus exclusions) or single files into one buffer; answers it and the entry names. */
async function zip(add: (a: archiver.Archiver) => void) {
  const archive = (await loadArchiver())('zip', { zlib: { level: 6 } });
  const files: string[] = [];
  const chunks: Buffer[] = [];
  archive.on('entry', (e) => {
    if (!e.name.endsWith('/')) files.push(e.name);
  });
  archive.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    archive.on('end', () => resolve());
    archive.on('error', reject);
  });
  add(archive);
  await archive.finalize();
  await done;
  return { body: Buffer.concat(chunks), files: files.sort() };
}

async function store(ctx: StepContext, body: Buffer, manifest: ComponentManifest) {
  const prefix = `pipelines/${ctx.pipeline.id}/${ctx.build.id}/${stepSegment(ctx.step.name)}`;
  const zipLocation = `${prefix}/${COMPONENT_ARTIFACT.files}.zip`;
  const { size } = await ctx.artifacts.put(zipLocation, body);
  await ctx.store.addArtifact({
    buildId: ctx.build.id,
    step: ctx.step.name,
    kind: 'files',
    name: COMPONENT_ARTIFACT.files,
    location: zipLocation,
    files: manifest.files.length,
    size,
  });
  const manifestLocation = `${prefix}/${COMPONENT_ARTIFACT.manifest}`;
  const text = JSON.stringify(manifest);
  const m = await ctx.artifacts.put(manifestLocation, text);
  await ctx.store.addArtifact({
    buildId: ctx.build.id,
    step: ctx.step.name,
    kind: 'json',
    name: COMPONENT_ARTIFACT.manifest,
    location: manifestLocation,
    files: 1,
    size: m.size,
  });
  const files = manifest.files.length;
  ctx.log(`[gantry] component artifact ${COMPONENT_ARTIFACT.files}.zip: ${files} file${files === 1 ? '' : 's'}, ${size} bytes`);
}

/** `terraform-build`: checks the module (*.tf files, a valid schema.json) and stores it as the build's component. */
export async function terraformBuild(ctx: StepContext) {
  const rel = ctx.resolve(String((ctx.step.config as { terraform_dir?: string }).terraform_dir ?? '.'));
  const { full: dir, shown, src } = insideCheckout(ctx, rel, 'terraform_dir');
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new PackagingError(`The Terraform directory ${shown} does not exist in the repository`);
  const tf = fs.readdirSync(dir).filter((f) => f.endsWith('.tf') || f.endsWith('.tf.json'));
  if (!tf.length) throw new PackagingError(`No Terraform files (*.tf) were found in ${shown}`);
  ctx.log(`[gantry] Terraform module ${shown}: ${tf.sort().join(', ')}`);
  const { schema } = readSchema(src, dir, shown);
  const readme = readReadme(src, dir);
  if (!readme) ctx.log(`[gantry] no README.md in ${shown}; the component will show no readme`);
  const module = listFilesInside(src, dir, { ignore: EXCLUDED });
  if (module.skipped.length) ctx.log(`[gantry] left out of the component (outside the repository): ${module.skipped.join(', ')}`);
  const { body, files } = await zip((a) => {
    for (const f of module.files) a.file(f.abs, { name: f.rel });
  });
  await store(ctx, body, { format: MANIFEST_FORMAT, tool: 'terraform', template: null, schema, readme: readme?.text ?? null, files });
}

/** `cfn-component`: checks the template (JSON or YAML with Resources) and its schema.json beside it, and stores them. */
export async function cfnComponent(ctx: StepContext) {
  const rel = ctx.resolve(String((ctx.step.config as { template?: string }).template ?? ''));
  const { full: file, shown, src } = insideCheckout(ctx, rel, 'template');
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new PackagingError(`The CloudFormation template ${shown} does not exist in the repository`);
  const text = readInCheckout(src, file, shown);
  checkTemplate(text, shown);
  const dir = path.dirname(file);
  const shownDir = path.dirname(shown);
  const { schema, text: schemaText } = readSchema(src, dir, shownDir);
  const readme = readReadme(src, dir);
  const name = path.basename(file);
  // the contents already read and checked, not the paths again: nothing can be swapped in between
  const { body, files } = await zip((a) => {
    a.append(text, { name });
    if (name !== 'schema.json') a.append(schemaText, { name: 'schema.json' });
    if (readme) a.append(readme.text, { name: readme.name });
  });
  ctx.log(`[gantry] CloudFormation template ${shown}`);
  await store(ctx, body, { format: MANIFEST_FORMAT, tool: 'cloudformation', template: name, schema, readme: readme?.text ?? null, files });
}

/** A template is JSON with a Resources object, or YAML with a top-level `Resources:` key (intrinsic tags are not parsed). */
export function checkTemplate(text: string, shown: string) {
  if (/\.json$/i.test(shown) || text.trimStart().startsWith('{')) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new PackagingError(`The template ${shown} is not valid JSON: ${(err as Error).message}`);
    }
    const resources = (doc as { Resources?: unknown } | null)?.Resources;
    if (!resources || typeof resources !== 'object') throw new PackagingError(`The template ${shown} has no Resources section`);
    return;
  }
  if (!/^Resources\s*:/m.test(text)) throw new PackagingError(`The template ${shown} has no Resources section`);
}

// ───────────────────────────── read side ─────────────────────────────

export interface ComponentBuildVersion {
  buildId: string;
  number: number;
  stopDate: Date | null;
  commitSha: string | null;
  commitMessage: string | null;
  commitAuthor: string | null;
  commitAvatar: string | null;
}
export interface ComponentContent {
  schema: ParsedComponentSchema;
  readme: string | null;
  tool: string;
  template: string | null;
}

/**
 * Component versions as builds know them, for the components module (it never reads the build
 * tables itself): SUCCEEDED builds of a pipeline that left a component at a step, newest first.
 */
export function createComponentBuilds(deps: { store: BuildsStore; artifacts: ArtifactStore }) {
  const { store } = deps;

  return {
    versions: (pipelineId: string, step: string): Promise<ComponentBuildVersion[]> => store.componentVersions(pipelineId, step, COMPONENT_ARTIFACT.files),

    /** The newest active build of the pipeline ("Component is being built..."). */
    async running(pipelineId: string) {
      const row = await store.newestActive(pipelineId);
      return row ? { id: row.id, number: row.number, status: row.status, pipelineId: row.pipelineId, startDate: row.startDate?.toISOString() ?? null } : null;
    },

    /** The schema and README a build's component step packaged; undefined when it left none. */
    async content(buildId: string, step: string): Promise<ComponentContent | undefined> {
      const row = await store.stepArtifact(buildId, step, COMPONENT_ARTIFACT.manifest, 'json');
      const stream = row && (await deps.artifacts.get(row.location));
      if (!stream) return undefined;
      const chunks: Buffer[] = [];
      for await (const c of stream) chunks.push(Buffer.from(c));
      const manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ComponentManifest;
      const parsed = parseComponentSchemaText(JSON.stringify(manifest.schema));
      if (!parsed.schema) return undefined;
      return { schema: parsed.schema, readme: manifest.readme, tool: manifest.tool, template: manifest.template };
    },

    /** Unpacks a build's component into `dest` (created); answers false when the build has none. */
    async extract(buildId: string, step: string, dest: string): Promise<boolean> {
      const row = await store.stepArtifact(buildId, step, COMPONENT_ARTIFACT.files, 'files');
      const stream = row && (await deps.artifacts.get(row.location));
      if (!stream) return false;
      await fs.promises.mkdir(dest, { recursive: true });
      const zipFile = path.join(dest, '.component.zip');
      await fs.promises.writeFile(zipFile, stream);
      try {
        await (
          await loadExtractZip()
        )(zipFile, { dir: path.resolve(dest) });
      } finally {
        await fs.promises.rm(zipFile, { force: true });
      }
      return true;
    },
  };
}
export type ComponentBuilds = ReturnType<typeof createComponentBuilds>;
