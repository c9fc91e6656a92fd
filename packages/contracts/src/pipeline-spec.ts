/**
 * The pipeline spec (`gantry.yaml`, or `.microtica/microtica.yaml` as specs brought from the original
 * product keep it; payload field `gantryYaml`): its format, its validation
 * rules (spec delivery.md §5 "Pipeline YAML"), the step catalogue of the editor, the default
 * template, the execution plan and `{{NAME}}` placeholders. Pure: no I/O, no node: imports —
 * the web editor and the server's build runner both use it.
 *
 * ## Format
 *
 * ```yaml
 * stages:                      # optional: a list of stage names (strings, at least one, no duplicates)
 *   - clone
 *   - build
 * runtime:                     # optional, for the whole pipeline
 *   computeType: SMALL         # SMALL | MEDIUM | LARGE | 2XLARGE
 *   packages:                  # at least one; only nodejs or java; version as a number or a string
 *     nodejs: 20
 * steps:                       # required: a MAP keyed by step name, in execution order (file order)
 *   Clone:
 *     stage: clone
 *     type: git-clone
 *     depth: 50                # optional positive integer
 *   Build:                     # `type: build`, or no type + image/commands/artifacts = a plain build step
 *     stage: build
 *     title: Build the app     # optional on any step: shown on the step card
 *     cache: true              # optional: keep the step's dependency folders between builds
 *     image: node:20
 *     runtime: { packages: { nodejs: 20 } }   # optional per step (build steps only)
 *     commands:                # at least one string
 *       - npm ci
 *       - npm test
 *     artifacts:               # at least one of files / json
 *       files:                 # named zipped file sets: name → paths/globs relative to the work dir
 *         package_zip:         # name: letters, digits, '.', '_', '-', not starting with '.', '_' or '-'
 *           - dist/            # a list of paths, or one path (`package_zip: dist/`)
 *       json: output.json      # a JSON file whose content is kept as the step's json artifact
 *     docker:                  # optional: after the commands, build and push as a docker-push step would
 *       image_name: web        # required; tag?, registry?, dockerfile?, context?
 * ```
 *
 * Rules:
 * - Every step may have `stage`. When `stages` is listed, every step needs a `stage` that is a
 *   string from the list, and every listed stage must be used by a step. Without `stages`, a
 *   step's `stage` (if any) must be a string and is otherwise ignored (`stage: null` when parsed).
 * - Step names must not be numeric (`1:`, `"2":`, `1.5:` …).
 * - Typed steps and their own properties (nothing else but `stage` and `type` is allowed):
 *   - `git-clone`: `depth?` (integer ≥ 1)
 *   - `docker-push`: `image_name` (required), `tag?`, `registry?`, `dockerfile?`, `context?`
 *   - `deploy`: `target?` = `kubernetes` (default) | `environment`;
 *      kubernetes: `cluster`, `namespace`, `service` (required), `tag?`, `branch_filter?`;
 *      environment: `env_id` (required), `partial?` (a boolean, or
 *      `{ create_missing_resources?: boolean, resource_version_overrides?: { name: version } }`)
 *   - `cfn-component`: `template` (required)
 *   - `trigger-pipeline`: `pipeline` (required, a pipeline name), `branch?`
 *   - `terraform-build`: `terraform_dir?` (default '.')
 *   - `trigger-reflect-test`: `test_id` (required), `tags?` (list of at least one string)
 *   All those values are non-empty strings unless said otherwise.
 * - Placeholders `{{NAME}}` (GANTRY_PIPELINE_ID, GANTRY_PIPELINE_NAME, GANTRY_PIPELINE_EXECUTION_ID,
 *   GANTRY_BRANCH, GANTRY_COMMIT, their MIC_ aliases, and any pipeline variable by name) are kept as
 *   written by the validator; the build runner resolves them (values and map keys) when it uses a value.
 *
 * Schema errors read '{message} Path: {path}', the path being dot-separated keys with `[i]` for
 * list items (`steps.Build.commands[0]`, `runtime.computeType`), or 'Root level' for the root.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { parseDocument } from 'yaml';
import type { ComputeType, SpecSchemaName } from './pipeline-spec-schemas.js';
import { specValidators } from './pipeline-spec-validators.js';

// ───────────────────────────── constants and types ─────────────────────────────

export const STEP_TYPES = ['git-clone', 'docker-push', 'deploy', 'cfn-component', 'trigger-pipeline', 'terraform-build', 'trigger-reflect-test'] as const;
export type StepType = (typeof STEP_TYPES)[number];

export { COMPUTE_TYPES, DEPLOY_TARGETS, type ComputeType, type DeployTarget } from './pipeline-spec-schemas.js';

export const RUNTIME_PACKAGES = ['nodejs', 'java'] as const;
export type RuntimePackage = (typeof RUNTIME_PACKAGES)[number];

/** The variables a build sees; `{{NAME}}` placeholders in a spec resolve from them (DESIGN §8). */
export const PIPELINE_PLACEHOLDER_VARIABLES = [
  'GANTRY_PIPELINE_ID',
  'GANTRY_PIPELINE_NAME',
  'GANTRY_PIPELINE_EXECUTION_ID',
  'GANTRY_BRANCH',
  'GANTRY_COMMIT',
] as const;

export type SpecRuntime = {
  computeType?: ComputeType;
  packages?: Partial<Record<RuntimePackage, string | number>>;
};

/** Artifacts as parsed: a `files` entry given as one path is a list of one. */
export type StepArtifacts = { files?: Record<string, string[]>; json?: string };

/** The `docker` block of a `build` step: the image it builds and pushes after its commands, as a docker-push step would. */
export type StepDockerBlock = { image_name: string; registry?: string; tag?: string; dockerfile?: string; context?: string };

/** `partial` of an environment deploy: a boolean, or which resources get which versions (and whether missing ones are created). */
export type PartialDeploy = boolean | { create_missing_resources?: boolean; resource_version_overrides?: Record<string, string> };

export type ParsedStep = {
  name: string;
  /** What the step card shows besides the name (`title`), when given. */
  title?: string;
  /** The step's stage; null when the spec lists no stages. */
  stage: string | null;
  type: StepType | 'build';
  image?: string;
  /** Commands of a plain build step, in order; [] for typed steps. */
  commands: string[];
  artifacts?: StepArtifacts;
  /** Per-step runtime of a plain build step. */
  runtime?: SpecRuntime;
  /**
   * Every property of the step except `stage` and `type`, with defaults filled in:
   * deploy `target` ('kubernetes'), terraform-build `terraform_dir` ('.').
   */
  config: Record<string, unknown>;
};

export type ParsedSpec = {
  /** The stages as listed; [] when the spec has none. */
  stages: string[];
  runtime?: SpecRuntime;
  /** Steps in file order. */
  steps: ParsedStep[];
};

export type PipelineSpecValidation = { errors: string[]; spec: ParsedSpec | null };

export { MAX_SPEC_BYTES, SPEC_TOO_LARGE_MESSAGE, MAX_SPEC_ALIASES, isSpecWithinSize } from './pipeline-spec-limits.js';
import { MAX_SPEC_ALIASES, isSpecWithinSize, SPEC_TOO_LARGE_MESSAGE } from './pipeline-spec-limits.js';

export type ExecutionGroup = { stage: string | null; steps: ParsedStep[] };

// ───────────────────────────── validation ─────────────────────────────

const NOT_YAML = 'Not a valid Yaml File';
const RUNTIME_PACKAGES_TEXT = RUNTIME_PACKAGES.join(', ');

type Plain = Record<string, unknown>;
const isPlainObject = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

class SelfReferencingYaml extends Error {}

/**
 * YAML maps come back as Maps (keys keep their YAML type and order); turn them into plain objects.
 * An anchor aliased inside itself (`a: &a\n  <<: *a`) makes a cycle: refused, not recursed into.
 */
function toPlain(v: unknown, ancestors = new Set<unknown>()): unknown {
  if (!(v instanceof Map) && !Array.isArray(v)) return v;
  if (ancestors.has(v)) throw new SelfReferencingYaml();
  ancestors.add(v);
  let out: unknown;
  if (v instanceof Map) {
    const obj: Plain = {};
    for (const [k, val] of v) {
      Object.defineProperty(obj, String(k), { value: toPlain(val, ancestors), enumerable: true, writable: true, configurable: true });
    }
    out = obj;
  } else out = v.map((item) => toPlain(item, ancestors));
  ancestors.delete(v);
  return out;
}

/** A name is numeric when YAML read it as a number, or when it is a string that reads as a finite number. */
function isNumericName(key: unknown): boolean {
  if (typeof key === 'number' || typeof key === 'bigint') return true;
  return typeof key === 'string' && key.trim() !== '' && Number.isFinite(Number(key));
}

const show = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v)));

/** '/steps/Build/commands/0' on `data` → 'steps.Build.commands[0]'. */
function readablePath(prefix: string[], instancePath: string, data: unknown): string {
  const segments =
    instancePath === ''
      ? []
      : instancePath
          .slice(1)
          .split('/')
          .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let out = prefix.join('.');
  let node: unknown = data;
  for (const seg of segments) {
    if (Array.isArray(node)) {
      out += `[${seg}]`;
      node = node[Number(seg)];
    } else {
      out += out === '' ? seg : `.${seg}`;
      node = isPlainObject(node) ? node[seg] : undefined;
    }
  }
  return out === '' ? 'Root level' : out;
}

function schemaMessage(e: ErrorObject): string | null {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'propertyNames') return null; // its inner error (below) names the property
  if (e.propertyName !== undefined) return `Invalid property name '${e.propertyName}'`;
  switch (e.keyword) {
    case 'required':
      return `Should have required property '${String(p.missingProperty)}'`;
    case 'additionalProperties':
      return `Invalid property '${String(p.additionalProperty)}'`;
    case 'minProperties':
      return 'Object does not have enough properties';
    case 'minItems':
      return 'Array does not have enough items';
    case 'enum':
      return `Property value is invalid. Should be ${(p.allowedValues as unknown[]).map(show).join(', ')}`;
    case 'type':
      return `Should be ${([] as unknown[]).concat(p.type).map(show).join(' or ')}`;
    case 'minLength':
      return p.limit === 1 ? 'Should not be empty' : `Should not be shorter than ${String(p.limit)} characters`;
    case 'minimum':
      return `Should be at least ${String(p.limit)}`;
    case 'uniqueItems':
      return 'Should not have duplicate items';
    case 'const':
      return `Property value is invalid. Should be ${show(p.allowedValue)}`;
    default:
      return `Property value is invalid (${e.message ?? e.keyword})`;
  }
}

function schemaErrors(validate: ValidateFunction, data: unknown, prefix: string[] = []): string[] {
  if (validate(data)) return [];
  const out: string[] = [];
  for (const e of validate.errors ?? []) {
    const message = schemaMessage(e);
    if (message === null) continue;
    const line = `${message} Path: ${readablePath(prefix, e.instancePath, data)}`;
    if (!out.includes(line)) out.push(line);
  }
  return out;
}

function runtimeHasOnlyAllowedPackages(runtime: unknown): boolean {
  if (!isPlainObject(runtime) || !isPlainObject(runtime.packages)) return true; // shape errors come from the schema
  return Object.keys(runtime.packages).every((k) => (RUNTIME_PACKAGES as readonly string[]).includes(k));
}

const isStepType = (v: unknown): v is StepType => typeof v === 'string' && (STEP_TYPES as readonly string[]).includes(v);

/** Each step type's schema (a deploy's is its target's). */
const STEP_SCHEMA = {
  'git-clone': 'gitClone',
  'docker-push': 'dockerPush',
  'cfn-component': 'cfnComponent',
  'trigger-pipeline': 'triggerPipeline',
  'terraform-build': 'terraformBuild',
  'trigger-reflect-test': 'triggerReflectTest',
} as const satisfies Record<Exclude<StepType, 'deploy'>, SpecSchemaName>;

function stepSchemaKey(type: StepType, step: Plain): SpecSchemaName {
  if (type === 'deploy') return step.target === 'environment' ? 'deployEnvironment' : 'deployKubernetes';
  return STEP_SCHEMA[type];
}

function stepConfig(type: StepType | 'build', step: Plain): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(step)) if (k !== 'stage' && k !== 'type') config[k] = v;
  if (type === 'deploy' && config.target === undefined) config.target = 'kubernetes';
  if (type === 'terraform-build' && config.terraform_dir === undefined) config.terraform_dir = '.';
  return config;
}

function parsedArtifacts(artifacts: Plain): StepArtifacts {
  const out = { ...artifacts } as StepArtifacts & { files?: Record<string, string | string[]> };
  if (isPlainObject(artifacts.files))
    out.files = Object.fromEntries(Object.entries(artifacts.files).map(([k, v]) => [k, ([] as string[]).concat(v as string | string[])]));
  return out as StepArtifacts;
}

/**
 * Validates a pipeline spec (delivery.md §5 "Pipeline YAML"). Returns every error found, in
 * file order (stages, runtime, root, then step by step, then unused stages), and the parsed
 * spec when there is none.
 */
export function validatePipelineSpec(yamlText: string): PipelineSpecValidation {
  const invalid = { errors: [NOT_YAML], spec: null };
  if (typeof yamlText !== 'string') return invalid;
  if (!isSpecWithinSize(yamlText)) return { errors: [SPEC_TOO_LARGE_MESSAGE], spec: null };
  let raw: unknown;
  let root: Plain;
  try {
    const doc = parseDocument(yamlText);
    if (doc.errors.length > 0) return invalid;
    raw = doc.toJS({ mapAsMap: true, maxAliasCount: MAX_SPEC_ALIASES });
    if (!(raw instanceof Map) || raw.size === 0) return invalid;
    root = toPlain(raw) as Plain;
  } catch {
    return invalid; // any parser complaint (syntax, alias bomb, self-reference) is the spec's one message
  }
  return validateSpecObject(raw, root);
}

function validateSpecObject(raw: Map<unknown, unknown>, root: Plain): PipelineSpecValidation {
  const v = specValidators();
  const errors: string[] = [];

  // Stages: taken out of the root before its schema check, validated on their own.
  const hasStages = Object.prototype.hasOwnProperty.call(root, 'stages');
  const stagesValue = root.stages;
  delete root.stages;
  errors.push(...(hasStages ? schemaErrors(v.stages, stagesValue, ['stages']) : []));
  // Stage rules apply when a list is given (a malformed one is reported above, not step by step).
  const checkStages = Array.isArray(stagesValue) && stagesValue.length > 0;
  const stages = checkStages ? stagesValue.filter((s): s is string => typeof s === 'string') : [];

  if (!runtimeHasOnlyAllowedPackages(root.runtime)) errors.push(`Runtime is invalid. Should be one of: ${RUNTIME_PACKAGES_TEXT}`);
  errors.push(...schemaErrors(v.root, root));

  const steps: ParsedStep[] = [];
  const usedStages = new Set<string>();
  const rawSteps = raw.get('steps');
  const seenNames = new Set<string>();
  if (rawSteps instanceof Map) {
    for (const [key, rawStep] of rawSteps) {
      const name = String(key);
      if (isNumericName(key)) errors.push(`The step name ${name} should be a string`);
      else if (seenNames.has(name)) errors.push(`The step name ${name} is used more than once`);
      seenNames.add(name);

      const step = toPlain(rawStep);
      if (!isPlainObject(step)) {
        errors.push(`The step ${name} is invalid`);
        continue;
      }

      // Stage.
      let stage: string | null = null;
      const stageValue = step.stage;
      if (stageValue !== undefined && stageValue !== null && typeof stageValue !== 'string') {
        errors.push(`The stage ${show(stageValue)} on the step ${name} should be a string`);
      } else if (checkStages) {
        if (stageValue === undefined || stageValue === null) {
          errors.push(`Step ${name} is missing the stage property. If stages are defined, all steps must have a stage`);
        } else {
          usedStages.add(stageValue);
          if (!stages.includes(stageValue)) errors.push(`The stage ${stageValue} on the step ${name} does not exist`);
          else stage = stageValue;
        }
      }

      if (!runtimeHasOnlyAllowedPackages(step.runtime)) {
        errors.push(`Runtime is invalid on the step ${name}. Should be one of: ${RUNTIME_PACKAGES_TEXT}`);
      }

      // Type.
      let type: StepType | 'build';
      if (step.type === 'build') {
        type = 'build';
        errors.push(...schemaErrors(v.build, step, ['steps', name]));
      } else if (step.type !== undefined) {
        if (!isStepType(step.type)) {
          errors.push(`Invalid "type" value on the step ${name}`);
          continue;
        }
        type = step.type;
        errors.push(...schemaErrors(v[stepSchemaKey(type, step)], step, ['steps', name]));
      } else if (step.image !== undefined || step.commands !== undefined || step.artifacts !== undefined) {
        type = 'build';
        errors.push(...schemaErrors(v.build, step, ['steps', name]));
      } else {
        errors.push(`The step ${name} is invalid`);
        continue;
      }

      const parsed: ParsedStep = {
        name,
        stage,
        type,
        commands: type === 'build' && Array.isArray(step.commands) ? (step.commands as string[]) : [],
        config: stepConfig(type, step),
      };
      if (typeof step.title === 'string') parsed.title = step.title;
      if (type === 'build') {
        if (typeof step.image === 'string') parsed.image = step.image;
        if (isPlainObject(step.artifacts)) parsed.artifacts = parsedArtifacts(step.artifacts);
        if (isPlainObject(step.runtime)) parsed.runtime = step.runtime as SpecRuntime;
      }
      steps.push(parsed);
    }
  }

  for (const s of stages) if (!usedStages.has(s)) errors.push(`The stage ${s} is not used in any step`);

  if (errors.length > 0) return { errors, spec: null };
  const spec: ParsedSpec = { stages, steps };
  if (isPlainObject(root.runtime)) spec.runtime = root.runtime as SpecRuntime;
  return { errors: [], spec };
}

// ───────────────────────────── execution plan ─────────────────────────────

/**
 * The order the build runner runs steps in: one group per listed stage, in the listed order,
 * each with its steps in file order; with no stages, one group (stage null) of all steps.
 */
export function executionPlan(spec: ParsedSpec): ExecutionGroup[] {
  if (spec.stages.length === 0) return [{ stage: null, steps: [...spec.steps] }];
  return spec.stages.map((stage) => ({ stage, steps: spec.steps.filter((s) => s.stage === stage) }));
}

// ───────────────────────────── placeholders ─────────────────────────────

/**
 * The original product's variables (specs brought from it use them), as aliases of Gantry's own.
 * MIC_BRANCH_FILTER is the branch being built: the one the pipeline's branch filter let through.
 */
export const MIC_PLACEHOLDER_ALIASES = {
  MIC_PIPELINE_ID: 'GANTRY_PIPELINE_ID',
  MIC_PIPELINE_NAME: 'GANTRY_PIPELINE_NAME',
  MIC_PIPELINE_EXECUTION_ID: 'GANTRY_PIPELINE_EXECUTION_ID',
  MIC_BRANCH_FILTER: 'GANTRY_BRANCH',
  MIC_BRANCH: 'GANTRY_BRANCH',
  MIC_COMMIT: 'GANTRY_COMMIT',
  MIC_COMMIT_SHA: 'GANTRY_COMMIT',
} as const satisfies Record<string, (typeof PIPELINE_PLACEHOLDER_VARIABLES)[number]>;

/**
 * What `{{NAME}}` resolves from in a build: the pipeline's own variables by name, then Gantry's
 * variables and their MIC_ aliases (those win over a pipeline variable of the same name).
 */
export function placeholderVariables(
  gantry: Record<(typeof PIPELINE_PLACEHOLDER_VARIABLES)[number], string>,
  pipelineVariables: Record<string, string> = {},
): Record<string, string> {
  const aliases = Object.fromEntries(Object.entries(MIC_PLACEHOLDER_ALIASES).map(([mic, own]) => [mic, gantry[own]]));
  return { ...pipelineVariables, ...gantry, ...aliases };
}

/** Resolves placeholders in every string of a step's config, map keys included (`{{RESOURCE}}: v2`). */
export function resolvePlaceholdersDeep(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return resolvePlaceholders(value, vars);
  if (Array.isArray(value)) return value.map((v) => resolvePlaceholdersDeep(v, vars));
  if (isPlainObject(value)) {
    const out: Plain = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, resolvePlaceholders(k, vars), {
        value: resolvePlaceholdersDeep(v, vars),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

/** Replaces `{{NAME}}` (spaces inside the braces allowed) with vars[NAME]; unknown names stay as written. */
export function resolvePlaceholders(input: string, vars: Record<string, string>): string {
  return input.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(vars, name) ? vars[name] : whole,
  );
}

// ───────────────────────────── spec file ─────────────────────────────

/**
 * Where a pipeline's spec may live in its repository, relative to the pipeline's work dir, in the
 * order they are looked for: Gantry's own file, then the original product's.
 */
export const SPEC_FILE_NAMES = ['gantry.yaml', '.microtica/microtica.yaml'] as const;

/** A spec file's path in the repository, under the work dir ('/' or '' is the repository's root). */
export function specFilePath(workDir: string, file: (typeof SPEC_FILE_NAMES)[number] = SPEC_FILE_NAMES[0]): string {
  const dir = workDir.replace(/^\/+|\/+$/g, '');
  return dir ? `${dir}/${file}` : file;
}

// ───────────────────────────── catalogue and template ─────────────────────────────

export type StepCatalogueEntry = {
  id: string;
  title: string;
  description: string;
  /** YAML to insert under `steps:` (indented by two spaces). Add a `stage` when the spec lists stages. */
  snippet: string;
};

export const STEP_CATALOGUE: readonly StepCatalogueEntry[] = [
  {
    id: 'git-clone',
    title: 'Git clone',
    description: 'Clone the Git repository of the pipeline at the commit being built',
    snippet: ['  Clone:', '    type: git-clone', '    depth: 50', ''].join('\n'),
  },
  {
    id: 'docker-push',
    title: 'Docker push',
    description: 'Build a Docker image from a Dockerfile and push it to a container registry',
    snippet: ['  PushImage:', '    type: docker-push', '    image_name: my-app', '    tag: "{{GANTRY_COMMIT}}"', '    dockerfile: Dockerfile', ''].join('\n'),
  },
  {
    id: 'deploy-kubernetes',
    title: 'Deploy on Kubernetes',
    description: 'Deploy a service to a namespace of a Kubernetes cluster',
    snippet: [
      '  DeployService:',
      '    type: deploy',
      '    target: kubernetes',
      '    cluster: my-cluster',
      '    namespace: default',
      '    service: my-service',
      '    tag: "{{GANTRY_COMMIT}}"',
      '',
    ].join('\n'),
  },
  {
    id: 'cfn-component',
    title: 'CloudFormation component',
    description: 'Package a CloudFormation template as a component',
    snippet: ['  Component:', '    type: cfn-component', '    template: template.yaml', ''].join('\n'),
  },
  {
    id: 'deploy-environment',
    title: 'Deploy environment',
    description: 'Deploy an environment with its components',
    snippet: ['  DeployEnvironment:', '    type: deploy', '    target: environment', '    env_id: my-environment', '    partial: false', ''].join('\n'),
  },
  {
    id: 'trigger-pipeline',
    title: 'Trigger pipeline',
    description: 'Trigger another pipeline of the project on a branch',
    snippet: ['  TriggerPipeline:', '    type: trigger-pipeline', '    pipeline: other-pipeline', '    branch: "{{GANTRY_BRANCH}}"', ''].join('\n'),
  },
  {
    id: 'terraform-build',
    title: 'Terraform build',
    description: 'Package Terraform configuration from a folder of the repository',
    snippet: ['  Terraform:', '    type: terraform-build', '    terraform_dir: .', ''].join('\n'),
  },
  {
    id: 'trigger-reflect-test',
    title: 'Trigger Reflect test',
    description: 'Run a Reflect test, optionally selected by tags',
    snippet: ['  ReflectTest:', '    type: trigger-reflect-test', '    test_id: "12345"', '    tags:', '      - smoke', ''].join('\n'),
  },
];

/** Catalogue entries whose description contains the term, case-insensitive; all for an empty term. */
export function searchStepCatalogue(term: string): StepCatalogueEntry[] {
  const needle = term.trim().toLowerCase();
  if (needle === '') return [...STEP_CATALOGUE];
  return STEP_CATALOGUE.filter((e) => e.description.toLowerCase().includes(needle));
}

/** The spec a new pipeline starts with (§5): stages clone and build, a git-clone step and an npm build step. */
export const DEFAULT_SPEC_TEMPLATE = `stages:
  - clone
  - build

steps:
  Clone:
    stage: clone
    type: git-clone

  Build:
    stage: build
    image: aws/codebuild/standard:7.0
    runtime:
      packages:
        nodejs: 20
    commands:
      - npm install
      - npm test
`;
