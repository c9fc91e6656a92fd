/**
 * The JSON schemas of the pipeline spec's shapes (pipeline-spec.ts has the format, and the rules left to code), apart
 * from the validator: the server compiles them when first used (pipeline-spec-validators.ts), the web's build ahead of
 * time (packages/contracts/scripts/precompiled-validators.ts), as the browser's policy allows no eval.
 */

export const COMPUTE_TYPES = ['SMALL', 'MEDIUM', 'LARGE', '2XLARGE'] as const;
export type ComputeType = (typeof COMPUTE_TYPES)[number];

export const DEPLOY_TARGETS = ['kubernetes', 'environment'] as const;
export type DeployTarget = (typeof DEPLOY_TARGETS)[number];

const text = { type: 'string', minLength: 1 } as const;
const anything = {} as const;
/** `stage` and `type` are checked by hand (own messages), so step schemas accept them as they are; any step may have a `title`. */
const common = { stage: anything, type: anything, title: text } as const;
/** One path or a list of paths (specs written for the original product use both). */
const pathOrPaths = { type: ['string', 'array'], minLength: 1, minItems: 1, items: text } as const;
const dockerBlockSchema = {
  type: 'object',
  required: ['image_name'],
  properties: { image_name: text, tag: text, registry: text, dockerfile: text, context: text },
  additionalProperties: false,
} as const;

const runtimeSchema = {
  type: 'object',
  properties: {
    computeType: { enum: [...COMPUTE_TYPES] },
    packages: {
      type: 'object',
      minProperties: 1,
      // Which package names are allowed is a rule of its own ('Runtime is invalid…').
      additionalProperties: { type: ['string', 'number'] },
    },
  },
  additionalProperties: false,
} as const;

const stagesSchema = { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string' } } as const;

const rootSchema = {
  type: 'object',
  required: ['steps'],
  properties: {
    runtime: runtimeSchema,
    steps: { type: 'object', minProperties: 1 },
  },
  additionalProperties: false,
} as const;

const buildStepSchema = {
  type: 'object',
  properties: {
    ...common,
    image: text,
    runtime: runtimeSchema,
    commands: { type: 'array', minItems: 1, items: { type: 'string' } },
    cache: { type: 'boolean' },
    docker: dockerBlockSchema,
    artifacts: {
      type: 'object',
      minProperties: 1,
      properties: {
        files: {
          type: 'object',
          minProperties: 1,
          propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$' },
          additionalProperties: pathOrPaths,
        },
        json: text,
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;

/** Each typed step's own schema (a deploy has one per target). */
const typedStepSchemas = {
  gitClone: {
    type: 'object',
    properties: { ...common, depth: { type: 'integer', minimum: 1 } },
    additionalProperties: false,
  },
  dockerPush: {
    type: 'object',
    required: ['image_name'],
    properties: { ...common, image_name: text, tag: text, registry: text, dockerfile: text, context: text },
    additionalProperties: false,
  },
  deployKubernetes: {
    type: 'object',
    required: ['cluster', 'namespace', 'service'],
    properties: { ...common, target: { enum: [...DEPLOY_TARGETS] }, cluster: text, namespace: text, service: text, tag: text, branch_filter: text },
    additionalProperties: false,
  },
  deployEnvironment: {
    type: 'object',
    required: ['env_id'],
    properties: {
      ...common,
      target: { enum: [...DEPLOY_TARGETS] },
      env_id: text,
      partial: {
        type: ['boolean', 'object'],
        properties: {
          create_missing_resources: { type: 'boolean' },
          resource_version_overrides: { type: 'object', additionalProperties: { type: ['string', 'number'], minLength: 1 } },
        },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  cfnComponent: {
    type: 'object',
    required: ['template'],
    properties: { ...common, template: text },
    additionalProperties: false,
  },
  triggerPipeline: {
    type: 'object',
    required: ['pipeline'],
    properties: { ...common, pipeline: text, branch: text },
    additionalProperties: false,
  },
  terraformBuild: {
    type: 'object',
    properties: { ...common, terraform_dir: text },
    additionalProperties: false,
  },
  triggerReflectTest: {
    type: 'object',
    required: ['test_id'],
    properties: { ...common, test_id: text, tags: { type: 'array', minItems: 1, items: text } },
    additionalProperties: false,
  },
} as const;

/** Every schema, by the name its compiled validator has. */
export const SPEC_SCHEMAS = {
  root: rootSchema,
  stages: stagesSchema,
  build: buildStepSchema,
  ...typedStepSchemas,
} as const;
export type SpecSchemaName = keyof typeof SPEC_SCHEMAS;

/** How Ajv compiles them (the compiled code depends on it). */
export const SPEC_SCHEMA_OPTIONS = { allErrors: true, allowUnionTypes: true, strict: true } as const;
