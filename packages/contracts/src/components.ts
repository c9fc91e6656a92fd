/**
 * Components (spec infrastructure-builder §2 Components, §3 Component, §5, §6): the form, the
 * answers, the component schema (`schema.json` of a Terraform module or CloudFormation template)
 * and the pure rules around it — parsing the schema, which pipeline steps can be a component's
 * artifact step, checking resource inputs against the schema. No I/O.
 *
 * ## schema.json
 *
 * ```json
 * {
 *   "properties": {
 *     "inputs": {
 *       "properties": {
 *         "bucket_name": { "type": "string", "description": "Name", "default": "site" },
 *         "tier": { "type": "string", "enum": ["dev", "prod"] },
 *         "api_key": { "type": "string", "sensitive": true }
 *       },
 *       "required": ["bucket_name"]
 *     },
 *     "outputs": { "properties": { "url": { "type": "string", "description": "Site URL" } } }
 *   }
 * }
 * ```
 */
import { z } from 'zod';
import { InputText, InputUuid } from './common.js';
import type { ParsedSpec, StepType } from './pipeline-spec.js';
import { Commit } from './pipelines.js';

// ───────────────────────────── constants ─────────────────────────────

/** Spec §3: the listed types, and the lower-case forms also seen. */
export const COMPONENT_TYPES = [
  'Kubernetes',
  'Database',
  'Storage',
  'VirtualMachine',
  'Lambda',
  'Vpc',
  'Other',
  'kubernetes',
  'database',
  'storage',
  'virtual-machine',
  'lambda',
  'vpc',
  'other',
] as const;
export const ComponentType = z.enum(COMPONENT_TYPES, { error: 'Please select a component type' });
export type ComponentType = z.infer<typeof ComponentType>;

export const INFRA_CLOUD_PROVIDERS = ['aws', 'azurerm', 'google'] as const;
export const InfraCloudProvider = z.enum(INFRA_CLOUD_PROVIDERS, { error: 'Please select a cloud provider' });
export type InfraCloudProvider = z.infer<typeof InfraCloudProvider>;
/** Labels the list search matches on (spec §2 "a provider label"). */
export const INFRA_CLOUD_PROVIDER_LABELS: Record<InfraCloudProvider, string> = {
  aws: 'Amazon Web Services',
  azurerm: 'Microsoft Azure',
  google: 'Google Cloud Platform',
};

export const IAC_TOOLS = ['terraform', 'cloudformation'] as const;
export const IacTool = z.enum(IAC_TOOLS, { error: 'Please select an infrastructure-as-code tool' });
export type IacTool = z.infer<typeof IacTool>;

/** The pipeline step types that produce a component artifact, and the IaC tool of each. */
export const ARTIFACT_STEP_TOOLS = { 'terraform-build': 'terraform', 'cfn-component': 'cloudformation' } as const satisfies Partial<Record<StepType, IacTool>>;
export type ArtifactStepType = keyof typeof ARTIFACT_STEP_TOOLS;

/** Names of what a component build leaves behind (one pair per artifact step of a build). */
export const COMPONENT_ARTIFACT = { files: 'component', manifest: 'component.json' } as const;
/** Versions are shown as the first 7 characters (spec §9). */
export const VERSION_LABEL_LENGTH = 7;
export const versionLabel = (shaOrHash: string) => shaOrHash.slice(0, VERSION_LABEL_LENGTH);
/** Vendor components have one synthetic version per content of their shipped files. */
export const VENDOR_VERSION_PREFIX = 'vendor-';
export const isVendorVersion = (id: string) => id.startsWith(VENDOR_VERSION_PREFIX);

export const componentMessages = {
  noArtifactStep: 'This pipeline does not have any artifact step',
  deleteConfirm: 'Do you really want to delete the component? This action cannot be undone.',
  noVersions:
    'This component does not have any available versions yet. To use this component, you need to have at least one successful build for the pipeline associated with this component.',
} as const;

// ───────────────────────────── form ─────────────────────────────

const required = (label: string) =>
  InputText({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`);

const ComponentFields = z.object({
  name: InputText({ error: 'Component name is required' })
    .trim()
    .min(3, 'Component name must be at least 3 characters')
    .max(30, 'Component name must be at most 30 characters'),
  type: ComponentType,
  description: required('Description'),
  cloudProvider: InfraCloudProvider,
  infrastructureAsCodeTool: IacTool.default('terraform'),
  pipelineId: InputUuid('Please select a pipeline'),
  artifactStep: required('Artifact step'),
});

/** The IaC tool can be chosen only for aws (spec §2): CloudFormation is AWS-only. */
const toolFitsProvider = (v: { cloudProvider: InfraCloudProvider; infrastructureAsCodeTool: IacTool }) =>
  v.infrastructureAsCodeTool === 'terraform' || v.cloudProvider === 'aws';
const toolIssue = { message: 'Cloudformation is available for aws only', path: ['infrastructureAsCodeTool'] };

export const ComponentBody = ComponentFields.refine(toolFitsProvider, toolIssue);
export type ComponentBody = z.input<typeof ComponentBody>;
/** An update sends the same fields; the name cannot change (spec §2) and is ignored. */
export const UpdateComponentBody = ComponentFields.omit({ name: true }).refine(toolFitsProvider, toolIssue);
export type UpdateComponentBody = z.input<typeof UpdateComponentBody>;

export const ComponentParams = z.object({ projectId: InputUuid(), componentId: InputUuid() });
export const ComponentVersionParams = ComponentParams.extend({ buildId: InputText().min(1) });
export const ComponentShareParams = ComponentParams.extend({ targetProjectId: InputUuid() });
/** The grantee project; `granteeId` is the spec's name for it (§7), `projectId` ours. */
export const ShareComponentBody = z
  .object({
    projectId: InputUuid('Please select a project').optional(),
    granteeId: InputUuid('Please select a project').optional(),
  })
  .refine((b) => b.projectId || b.granteeId, { message: 'Please select a project', path: ['projectId'] });
export type ShareComponentBody = z.infer<typeof ShareComponentBody>;

// ───────────────────────────── answers ─────────────────────────────

export const AccessEntry = z.object({
  assigneeType: z.enum(['parent', 'shared']),
  /** 'parent': the owning project (seen by a grantee); 'shared': a grantee (seen by the owner). */
  assigneeId: z.string(),
  assigneeName: z.string(),
});
export type AccessEntry = z.infer<typeof AccessEntry>;

export const SchemaInput = z.object({
  name: z.string(),
  type: z.string(),
  default: z.unknown().optional(),
  enum: z.array(z.unknown()).nullable(),
  description: z.string().nullable(),
  sensitive: z.boolean(),
  required: z.boolean(),
});
export type SchemaInput = z.infer<typeof SchemaInput>;
export const SchemaOutput = z.object({ name: z.string(), type: z.string(), description: z.string().nullable(), sensitive: z.boolean() });
export type SchemaOutput = z.infer<typeof SchemaOutput>;
export const ComponentSchemaView = z.object({ inputs: z.array(SchemaInput), outputs: z.array(SchemaOutput) });
export type ComponentSchemaView = z.infer<typeof ComponentSchemaView>;
export const ComponentVersionSchema = ComponentSchemaView.extend({ version: z.string(), buildId: z.string(), readme: z.string().nullable() });
export type ComponentVersionSchema = z.infer<typeof ComponentVersionSchema>;

export const Component = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  description: z.string(),
  cloudProvider: InfraCloudProvider,
  infrastructureAsCodeTool: IacTool,
  pipelineId: z.string().nullable(),
  pipelineName: z.string().nullable(),
  repositoryUrl: z.string().nullable(),
  branchFilter: z.string().nullable(),
  artifactStep: z.string().nullable(),
  isPublic: z.boolean(),
  /** The owning project; null for vendor components. */
  projectId: z.string().nullable(),
  /** Set when the component is shared from another project: "Provided by project {name}". */
  providedBy: z.string().nullable(),
  /** Whether the asking project may edit, remove and share it (owns it and it is not public). */
  editable: z.boolean(),
  accessList: z.array(AccessEntry),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Component = z.infer<typeof Component>;

/** Details: the component plus the README and schema of its latest (or the asked) version. */
export const ComponentDetails = Component.extend({
  version: z.string().nullable(),
  buildId: z.string().nullable(),
  readme: z.string().nullable(),
  schema: ComponentSchemaView.nullable(),
});
export type ComponentDetails = z.infer<typeof ComponentDetails>;
export const ComponentDetailsQuery = z.object({ buildId: InputText().min(1).optional() });

export const ComponentVersion = z.object({
  /** The build id (or `vendor-<hash>` for a vendor component). */
  id: z.string(),
  buildNumber: z.number().int().nullable(),
  /** First 7 characters of the commit sha (or of the vendor hash). */
  version: z.string(),
  isLatestVersion: z.boolean(),
  status: z.literal('SUCCEEDED'),
  stopDate: z.string().nullable(),
  pipelineId: z.string().nullable(),
  metadata: z.object({ commit: Commit.nullable() }),
});
export type ComponentVersion = z.infer<typeof ComponentVersion>;

export const ComponentBuilding = z.object({
  build: z.object({ id: z.string(), number: z.number().int(), status: z.string(), pipelineId: z.string(), startDate: z.string().nullable() }).nullable(),
});
export type ComponentBuilding = z.infer<typeof ComponentBuilding>;

// ───────────────────────────── schema.json rules ─────────────────────────────

/** Types a schema may give an input or output: JSON-schema names and Terraform's own. */
export const SCHEMA_TYPES = ['string', 'number', 'integer', 'boolean', 'bool', 'array', 'list', 'set', 'object', 'map', 'any'] as const;
const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export type ParsedComponentSchema = ComponentSchemaView;
export type ComponentSchemaResult = { errors: string[]; schema: ParsedComponentSchema | null };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads a component's schema.json (already JSON-parsed): `properties.inputs.properties` (each with
 * type, default, enum, description, sensitive), `properties.inputs.required`, and
 * `properties.outputs.properties`. Inputs and outputs keep file order. A missing `type` is
 * 'string'. Errors name the offending path.
 */
export function parseComponentSchema(doc: unknown): ComponentSchemaResult {
  const errors: string[] = [];
  if (!isObject(doc)) return { errors: ['The schema must be a JSON object'], schema: null };
  const props = doc.properties;
  if (!isObject(props)) return { errors: ['The schema needs a "properties" object with "inputs" and "outputs"'], schema: null };

  const section = (key: 'inputs' | 'outputs') => {
    const s = props[key];
    if (s === undefined) return { properties: {} as Record<string, unknown>, required: [] as unknown[] };
    if (!isObject(s)) {
      errors.push(`properties.${key} must be an object`);
      return null;
    }
    if (s.properties !== undefined && !isObject(s.properties)) {
      errors.push(`properties.${key}.properties must be an object`);
      return null;
    }
    if (s.required !== undefined && !Array.isArray(s.required)) {
      errors.push(`properties.${key}.required must be a list of input names`);
      return null;
    }
    return { properties: (s.properties ?? {}) as Record<string, unknown>, required: (s.required ?? []) as unknown[] };
  };

  const common = (path: string, name: string, p: unknown) => {
    if (!IDENT.test(name)) errors.push(`${path}: "${name}" is not a valid name (letters, digits, _ and -, not starting with a digit)`);
    if (!isObject(p)) {
      errors.push(`${path}.${name} must be an object`);
      return null;
    }
    const type = p.type === undefined ? 'string' : p.type;
    if (typeof type !== 'string' || !(SCHEMA_TYPES as readonly string[]).includes(type))
      errors.push(`${path}.${name}.type must be one of ${SCHEMA_TYPES.join(', ')}`);
    if (p.description !== undefined && typeof p.description !== 'string') errors.push(`${path}.${name}.description must be a string`);
    if (p.sensitive !== undefined && typeof p.sensitive !== 'boolean') errors.push(`${path}.${name}.sensitive must be true or false`);
    return { type: String(type), description: typeof p.description === 'string' ? p.description : null, sensitive: p.sensitive === true, p };
  };

  const inputsSection = section('inputs');
  const outputsSection = section('outputs');
  const inputs: SchemaInput[] = [];
  const outputs: SchemaOutput[] = [];
  if (inputsSection) {
    const requiredNames = inputsSection.required;
    for (const r of requiredNames) {
      if (typeof r !== 'string') errors.push('properties.inputs.required must be a list of input names');
      else if (!(r in inputsSection.properties)) errors.push(`properties.inputs.required names "${r}", which is not an input`);
    }
    for (const [name, raw] of Object.entries(inputsSection.properties)) {
      const c = common('properties.inputs.properties', name, raw);
      if (!c) continue;
      const en = c.p.enum;
      if (en !== undefined && (!Array.isArray(en) || en.length === 0)) errors.push(`properties.inputs.properties.${name}.enum must be a non-empty list`);
      const enumValues = Array.isArray(en) && en.length ? en : null;
      if (enumValues && c.p.default !== undefined && !enumValues.some((v) => sameValue(v, c.p.default))) {
        errors.push(`properties.inputs.properties.${name}.default must be one of its enum values`);
      }
      inputs.push({
        name,
        type: c.type,
        ...(c.p.default !== undefined ? { default: c.p.default } : {}),
        enum: enumValues,
        description: c.description,
        sensitive: c.sensitive,
        required: requiredNames.includes(name),
      });
    }
  }
  if (outputsSection) {
    for (const [name, raw] of Object.entries(outputsSection.properties)) {
      const c = common('properties.outputs.properties', name, raw);
      if (c) outputs.push({ name, type: c.type, description: c.description, sensitive: c.sensitive });
    }
  }
  return errors.length ? { errors, schema: null } : { errors: [], schema: { inputs, outputs } };
}

/** Parses schema.json text: JSON errors and schema errors alike come back as `errors`. */
export function parseComponentSchemaText(text: string): ComponentSchemaResult {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    return { errors: [`schema.json is not valid JSON: ${(err as Error).message}`], schema: null };
  }
  return parseComponentSchema(doc);
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// ───────────────────────────── artifact steps ─────────────────────────────

export type ArtifactStepOption = { name: string; type: ArtifactStepType; infrastructureAsCodeTool: IacTool };

/** The steps of a pipeline spec that can be a component's artifact step, in file order. */
export function artifactStepsOf(spec: Pick<ParsedSpec, 'steps'> | null | undefined): ArtifactStepOption[] {
  return (spec?.steps ?? []).flatMap((s) =>
    s.type in ARTIFACT_STEP_TOOLS
      ? [{ name: s.name, type: s.type as ArtifactStepType, infrastructureAsCodeTool: ARTIFACT_STEP_TOOLS[s.type as ArtifactStepType] }]
      : [],
  );
}

/** Why a step cannot be the component's artifact step, or null when it can. */
export function artifactStepProblem(spec: Pick<ParsedSpec, 'steps'> | null | undefined, stepName: string, tool: IacTool): string | null {
  const options = artifactStepsOf(spec);
  if (!options.length) return componentMessages.noArtifactStep;
  const step = options.find((o) => o.name === stepName);
  if (!step) {
    const exists = spec?.steps.some((s) => s.name === stepName);
    return exists ? `The step ${stepName} is not an artifact step (terraform-build or cfn-component)` : `The pipeline has no step named ${stepName}`;
  }
  if (step.infrastructureAsCodeTool !== tool) {
    return `The step ${stepName} builds a ${step.infrastructureAsCodeTool === 'terraform' ? 'Terraform' : 'Cloudformation'} component; choose ${step.infrastructureAsCodeTool} as the infrastructure-as-code tool`;
  }
  return null;
}

// ───────────────────────────── list and inputs ─────────────────────────────

/** The list search (spec §2): case-insensitive substring over name, type, description, IaC tool and provider label. */
export function componentMatches(c: Pick<Component, 'name' | 'type' | 'description' | 'infrastructureAsCodeTool' | 'cloudProvider'>, term: string): boolean {
  const t = term.trim().toLowerCase();
  if (!t) return true;
  return [c.name, c.type, c.description, c.infrastructureAsCodeTool, c.cloudProvider, INFRA_CLOUD_PROVIDER_LABELS[c.cloudProvider]].some((f) =>
    f.toLowerCase().includes(t),
  );
}

/** Cut at about `max` characters on a word boundary, with an ellipsis (spec §2, §9). */
export function truncateDescription(text: string, max = 200): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}...`;
}

/**
 * Checks a resource's configuration against the component's inputs (spec §5): required inputs
 * need a value (or a default, or a reference), enum inputs one of their values, unknown keys are
 * refused. Answers messages keyed by input name; empty when fine.
 */
export function checkInputValues(inputs: SchemaInput[], values: { key: string; value: unknown; reference?: boolean }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  const byKey = new Map(values.map((v) => [v.key, v]));
  for (const v of values) if (!inputs.some((i) => i.name === v.key)) errors[v.key] = `${v.key} is not an input of this component`;
  for (const input of inputs) {
    const v = byKey.get(input.name);
    const empty = !v || v.value === undefined || v.value === null || v.value === '';
    if (empty) {
      if (input.required && input.default === undefined) errors[input.name] = `${input.name} is required`;
      continue;
    }
    if (v.reference) continue;
    if (input.enum && !input.enum.some((e) => sameValue(e, v.value) || String(e) === String(v.value))) {
      errors[input.name] = `${input.name} must be one of ${input.enum.map(String).join(', ')}`;
    }
  }
  return errors;
}
