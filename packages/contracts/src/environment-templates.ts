import { z } from 'zod';
import { StageFields, checkStageFields } from './stages.js';
import { ScheduleBody } from './schedules.js';
import { InputText } from './common.js';

/**
 * Environment templates (spec §2 "Templates"): CloudFormation environments on aws assembled from
 * vendor components, created in order after the stage. The vendor components named here ship in
 * apps/server/vendor-components (their schema.json inputs/outputs match the keys below).
 */
export const TEMPLATE_NAMES = ['strapi', 'kubernetes'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

export interface TemplateInput {
  key: string;
  label: string;
  /** Fixed choices (a select); free text otherwise. */
  options?: (string | number)[];
  default?: string | number;
  required: boolean;
}

export interface TemplateResource {
  /** The resource name in the environment. */
  name: string;
  /** The vendor component's name (components are found by it). */
  componentName: string;
  configurations: { key: string; value: string | number; reference: boolean }[];
}

export interface EnvironmentTemplate {
  title: string;
  description: string;
  inputs: TemplateInput[];
  resources(values: Record<string, string | number>): TemplateResource[];
}

const ref = (key: string, value: string) => ({ key, value, reference: true });
const lit = (key: string, value: string | number) => ({ key, value, reference: false });

export const VENDOR_COMPONENT_NAMES = {
  vpc: 'AWS VPC',
  strapiInfra: 'Strapi Infrastructure',
  fargateApp: 'Fargate App Runner',
  eks: 'EKS Cluster',
} as const;

export const ENVIRONMENT_TEMPLATES: Record<TemplateName, EnvironmentTemplate> = {
  strapi: {
    title: 'Strapi',
    description: 'A Strapi CMS on AWS Fargate behind a load balancer, in its own VPC.',
    inputs: [
      { key: 'DatabaseClient', label: 'Database client', options: ['sqlite', 'mysql'], default: 'sqlite', required: true },
      { key: 'ImageUrl', label: 'Image URL', required: true },
      { key: 'DesiredReplicas', label: 'Desired replicas', default: 1, required: true },
      { key: 'Memory', label: 'Memory (MiB)', options: [512, 1024], default: 512, required: true },
      { key: 'CPU', label: 'CPU units', options: [256, 512, 1024], default: 256, required: true },
      { key: 'Domain', label: 'Domain', required: false },
      { key: 'CertificateArn', label: 'Certificate ARN', required: false },
    ],
    resources: (v) => [
      { name: 'vpc', componentName: VENDOR_COMPONENT_NAMES.vpc, configurations: [] },
      {
        name: 'infrastructure',
        componentName: VENDOR_COMPONENT_NAMES.strapiInfra,
        configurations: [ref('VpcId', 'vpc.VpcId'), ref('SubnetIds', 'vpc.PublicSubnetIds'), lit('DatabaseClient', v.DatabaseClient ?? 'sqlite')],
      },
      {
        name: 'app',
        componentName: VENDOR_COMPONENT_NAMES.fargateApp,
        configurations: [
          ref('ClusterName', 'infrastructure.ClusterName'),
          ref('TargetGroupArn', 'infrastructure.TargetGroupArn'),
          ref('SubnetIds', 'vpc.PublicSubnetIds'),
          ref('SecurityGroupId', 'infrastructure.ServiceSecurityGroupId'),
          lit('ImageUrl', v.ImageUrl ?? ''),
          lit('DesiredReplicas', v.DesiredReplicas ?? 1),
          lit('Memory', v.Memory ?? 512),
          lit('CPU', v.CPU ?? 256),
          ...(v.Domain ? [lit('Domain', v.Domain)] : []),
          ...(v.CertificateArn ? [lit('CertificateArn', v.CertificateArn)] : []),
        ],
      },
    ],
  },
  kubernetes: {
    title: 'Kubernetes',
    description: 'An EKS cluster in its own VPC.',
    inputs: [
      { key: 'Domain', label: 'Domain', required: false },
      { key: 'CertificateArn', label: 'Certificate ARN', required: false },
    ],
    resources: (v) => [
      { name: 'vpc', componentName: VENDOR_COMPONENT_NAMES.vpc, configurations: [] },
      {
        name: 'cluster',
        componentName: VENDOR_COMPONENT_NAMES.eks,
        configurations: [
          ref('VpcId', 'vpc.VpcId'),
          ref('SubnetIds', 'vpc.PrivateSubnetIds'),
          ...(v.Domain ? [lit('Domain', v.Domain)] : []),
          ...(v.CertificateArn ? [lit('CertificateArn', v.CertificateArn)] : []),
        ],
      },
    ],
  },
};

export const isTemplateName = (v: string | null | undefined): v is TemplateName => !!v && (TEMPLATE_NAMES as readonly string[]).includes(v);

/** The toast that opens a template creation failure (spec §2); the server message follows it. */
export const TEMPLATE_FAILED_MESSAGE = 'Creating environment from template failed.';

/** The required inputs the values leave empty, as one message (null when none). */
export function missingTemplateInputs(template: TemplateName, values: Record<string, string | number>): string | null {
  const missing = ENVIRONMENT_TEMPLATES[template].inputs.filter((i) => i.required && (values[i.key] === undefined || values[i.key] === ''));
  if (!missing.length) return null;
  return `${missing.map((m) => m.label).join(', ')} ${missing.length > 1 ? 'are' : 'is'} required`;
}

/** The saving schedule of a new environment: its account, region and tag come from the environment. */
export const NewStageSavingSchedule = ScheduleBody.pick({ name: true, startExpression: true, stopExpression: true, timezone: true });

/** One call creates the environment, the template's resources in order and the saving schedule, or nothing. */
export const StageFromTemplateBody = StageFields.extend({
  template: z.enum(TEMPLATE_NAMES, { error: 'Please choose a template' }),
  templateValues: z.record(InputText(), z.union([InputText(), z.number()])).default({}),
  savingSchedule: NewStageSavingSchedule.optional(),
}).superRefine((v, ctx) => {
  checkStageFields(v, ctx);
  if (v.savingSchedule && v.cloudProvider !== 'aws')
    ctx.addIssue({ code: 'custom', path: ['savingSchedule'], message: 'Saving schedules need the aws provider' });
});
export type StageFromTemplateBody = z.input<typeof StageFromTemplateBody>;
