import { z } from 'zod';
import { InputText, InputUuid } from './common.js';
import { InfraCloudProvider, IacTool } from './components.js';

/** AWS regions offered for environments (spec §9: 23, with China and GovCloud). */
export const AWS_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'ca-central-1',
  'sa-east-1',
  'eu-central-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-north-1',
  'eu-south-1',
  'ap-south-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-east-1',
  'me-south-1',
  'cn-north-1',
  'us-gov-west-1',
  'us-gov-east-1',
] as const;

/** Google Cloud regions and their zones (spec §9: 25 regions). */
export const GCP_REGIONS: Record<string, string[]> = {
  'us-central1': ['a', 'b', 'c', 'f'],
  'us-east1': ['b', 'c', 'd'],
  'us-east4': ['a', 'b', 'c'],
  'us-west1': ['a', 'b', 'c'],
  'us-west2': ['a', 'b', 'c'],
  'us-west3': ['a', 'b', 'c'],
  'us-west4': ['a', 'b', 'c'],
  'northamerica-northeast1': ['a', 'b', 'c'],
  'northamerica-northeast2': ['a', 'b', 'c'],
  'southamerica-east1': ['a', 'b', 'c'],
  'europe-west1': ['b', 'c', 'd'],
  'europe-west2': ['a', 'b', 'c'],
  'europe-west3': ['a', 'b', 'c'],
  'europe-west4': ['a', 'b', 'c'],
  'europe-west6': ['a', 'b', 'c'],
  'europe-north1': ['a', 'b', 'c'],
  'europe-central2': ['a', 'b', 'c'],
  'asia-east1': ['a', 'b', 'c'],
  'asia-east2': ['a', 'b', 'c'],
  'asia-northeast1': ['a', 'b', 'c'],
  'asia-northeast2': ['a', 'b', 'c'],
  'asia-northeast3': ['a', 'b', 'c'],
  'asia-south1': ['a', 'b', 'c'],
  'asia-southeast1': ['a', 'b', 'c'],
  'australia-southeast1': ['a', 'b', 'c'],
};
export const gcpZones = (region: string) => (GCP_REGIONS[region] ?? []).map((z) => `${region}-${z}`);

export const stageMessages = {
  /** The rule, under the name field while it is typed (spec §5), before any submit tells it as an error. */
  nameRule: '3 to 20 characters, letters and digits only',
  nameLength: 'Environment name must be 3 to 20 characters',
  nameChars: 'Environment name may contain only letters and digits',
  description: 'Description must be 1 to 255 characters',
  awsAccount: 'Please select an AWS account',
  awsRegion: 'Please select a region',
  tenant: 'Please enter the tenant id',
  subscription: 'Please enter the subscription id',
  gcpProject: 'Please select a Google Cloud project',
  gcpRegion: 'Please select a region',
  gcpZone: 'Please select a zone of the region',
  cfnAwsOnly: 'CloudFormation environments need the aws provider',
} as const;

const optional = InputText()
  .trim()
  .optional()
  .transform((v) => v || undefined);

/** Create, edit and replicate (copyFrom) of an environment (spec §2 "Environment create, edit and replicate"). */
/** The environment's own fields; StageBody and StageFromTemplateBody add the per-provider rules. */
export const StageFields = z.object({
  name: InputText({ error: stageMessages.nameLength })
    .trim()
    .min(3, stageMessages.nameLength)
    .max(20, stageMessages.nameLength)
    .regex(/^[A-Za-z0-9]+$/, stageMessages.nameChars),
  description: InputText({ error: stageMessages.description }).trim().min(1, stageMessages.description).max(255, stageMessages.description),
  cloudProvider: InfraCloudProvider,
  infrastructureAsCodeTool: IacTool.default('terraform'),
  awsAccountId: optional,
  awsRegion: optional,
  tenantId: optional,
  subscriptionId: optional,
  gcpProjectId: optional,
  gcpRegion: optional,
  gcpZone: optional,
  copyFrom: InputUuid().optional(),
});

/** Each provider needs its own account fields; CloudFormation is aws only. */
export function checkStageFields(v: z.output<typeof StageFields>, ctx: z.RefinementCtx<z.output<typeof StageFields>>) {
  const need = (ok: unknown, path: string, message: string) => {
    if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
  };
  if (v.cloudProvider !== 'aws') need(v.infrastructureAsCodeTool === 'terraform', 'infrastructureAsCodeTool', stageMessages.cfnAwsOnly);
  if (v.cloudProvider === 'aws') {
    need(v.awsAccountId, 'awsAccountId', stageMessages.awsAccount);
    need(v.awsRegion && (AWS_REGIONS as readonly string[]).includes(v.awsRegion), 'awsRegion', stageMessages.awsRegion);
  }
  if (v.cloudProvider === 'azurerm') {
    need(v.tenantId, 'tenantId', stageMessages.tenant);
    need(v.subscriptionId, 'subscriptionId', stageMessages.subscription);
  }
  if (v.cloudProvider === 'google') {
    need(v.gcpProjectId, 'gcpProjectId', stageMessages.gcpProject);
    need(v.gcpRegion && GCP_REGIONS[v.gcpRegion], 'gcpRegion', stageMessages.gcpRegion);
    need(v.gcpZone && v.gcpRegion && gcpZones(v.gcpRegion).includes(v.gcpZone), 'gcpZone', stageMessages.gcpZone);
  }
}

export const StageBody = StageFields.superRefine(checkStageFields);
export type StageBody = z.input<typeof StageBody>;

export const Stage = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.string(),
  cloudProvider: InfraCloudProvider,
  infrastructureAsCodeTool: IacTool,
  awsAccountId: z.string().nullable(),
  awsRegion: z.string().nullable(),
  tenantId: z.string().nullable(),
  subscriptionId: z.string().nullable(),
  gcpProjectId: z.string().nullable(),
  gcpRegion: z.string().nullable(),
  gcpZone: z.string().nullable(),
  lastDeployed: z.string().nullable(),
  lastDeploymentId: z.string().nullable(),
  currentDeploymentId: z.string().nullable(),
  dateCreated: z.string(),
  dateUpdated: z.string(),
});
export type Stage = z.infer<typeof Stage>;
export const StageParams = z.object({ projectId: InputUuid(), stageId: InputUuid() });

/** Replica defaults (spec §9). */
export const replicaDefaults = (stage: { name: string }) => ({ name: `${stage.name}Replica`, description: `Replica of ${stage.name} environment` });
/** Once deployed, provider, tool and account fields are locked on edit (spec §2). */
export const stageLocked = (status: string) => status !== 'NOT_DEPLOYED' && status !== 'DELETE_COMPLETE';
export const LOCKED_STAGE_FIELDS = [
  'cloudProvider',
  'infrastructureAsCodeTool',
  'awsAccountId',
  'awsRegion',
  'tenantId',
  'subscriptionId',
  'gcpProjectId',
  'gcpRegion',
  'gcpZone',
] as const;

export const RESOURCE_LATEST = 'LATEST';
export const ResourceConfiguration = z.object({
  key: InputText().min(1),
  value: z.union([InputText(), z.number(), z.boolean()]),
  sensitive: z.boolean().default(false),
  /** true: value is another resource's output, written resourceName.outputName. */
  reference: z.boolean().default(false),
});
export type ResourceConfiguration = z.infer<typeof ResourceConfiguration>;
export const REFERENCE_PATTERN = /^([A-Za-z][A-Za-z0-9_-]*)\.([A-Za-z_][A-Za-z0-9_-]*)$/;
export const resourceMessages = {
  name: 'Resource name must be 3 to 30 letters and digits, starting with a letter',
  version: 'Please select a version',
  reference: 'Must select from suggested items in select mode*',
} as const;

export const ResourceBody = z
  .object({
    name: InputText()
      .trim()
      .min(3, resourceMessages.name)
      .max(30, resourceMessages.name)
      .regex(/^[A-Za-z][A-Za-z0-9]*$/, resourceMessages.name),
    componentId: InputUuid('Please select a component'),
    componentVersion: InputText({ error: resourceMessages.version }).min(1, resourceMessages.version).default(RESOURCE_LATEST),
    configurations: z.array(ResourceConfiguration).default([]),
  })
  .superRefine((v, ctx) => {
    v.configurations.forEach((c, i) => {
      if (c.reference && !(typeof c.value === 'string' && REFERENCE_PATTERN.test(c.value))) {
        ctx.addIssue({ code: 'custom', path: ['configurations', i, 'value'], message: resourceMessages.reference });
      }
    });
  });
export type ResourceBody = z.input<typeof ResourceBody>;

export const Resource = z.object({
  name: z.string(),
  component: z.object({ id: z.string(), name: z.string(), type: z.string() }),
  componentVersion: z.string(),
  status: z.string(),
  isDeployed: z.boolean(),
  configurations: z.array(ResourceConfiguration),
});
export type Resource = z.infer<typeof Resource>;
export const ResourceParams = StageParams.extend({ resourceName: InputText().min(1) });

/** Dice coefficient over character bigrams of the names, case and separators ignored: 0 (nothing alike) to 1. */
export function nameSimilarity(a: string, b: string): number {
  const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
  const x = norm(a);
  const y = norm(b);
  if (!x.length || !y.length) return 0;
  if (x === y) return 1;
  const grams = (s: string) => {
    const m = new Map<string, number>();
    for (let i = 0; i < s.length - 1; i++) m.set(s.slice(i, i + 2), (m.get(s.slice(i, i + 2)) ?? 0) + 1);
    return m;
  };
  const gx = grams(x);
  const gy = grams(y);
  let shared = 0;
  for (const [g, n] of gx) shared += Math.min(n, gy.get(g) ?? 0);
  const total = Math.max(x.length - 1, 0) + Math.max(y.length - 1, 0);
  return total ? (2 * shared) / total : 0;
}

/** Spec §2 resource modal: a suggestion scoring above 0.65 is labelled "suggested". */
export const SUGGESTED_SCORE = 0.65;

/** Other resources' outputs ranked for an input key, best first. */
export function rankReferenceSuggestions(inputKey: string, outputs: { resource: string; output: string }[]) {
  return outputs
    .map((o) => {
      const score = nameSimilarity(inputKey, o.output);
      return { value: `${o.resource}.${o.output}`, score, suggested: score > SUGGESTED_SCORE };
    })
    .sort((a, b) => b.score - a.score || a.value.localeCompare(b.value));
}

/**
 * The name "Add to Environment" gives a component's new resource: its name's letters and digits
 * (3 to 30), numbered when the environment already has it.
 */
export function defaultResourceName(componentName: string, taken: string[]): string {
  const letters = componentName.replace(/[^A-Za-z0-9]/g, '');
  const base = (/^[A-Za-z]/.test(letters) ? letters : `r${letters}`).padEnd(3, '0').slice(0, 30);
  const used = new Set(taken.map((t) => t.toLowerCase()));
  if (!used.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base.slice(0, 30 - String(n).length)}${n}`;
    if (!used.has(candidate.toLowerCase())) return candidate;
  }
}

/** Configurations of a component's inputs at their defaults; null when a required input has none (the modal must ask). */
export function defaultConfigurations(inputs: { name: string; default?: unknown; required?: boolean; sensitive?: boolean }[]): ResourceConfiguration[] | null {
  if (inputs.some((i) => i.required && i.default === undefined)) return null;
  return inputs
    .filter((i) => i.default !== undefined && ['string', 'number', 'boolean'].includes(typeof i.default))
    .map((i) => ({ key: i.name, value: i.default as string | number | boolean, sensitive: Boolean(i.sensitive), reference: false }));
}
