import {
  DEFAULT_SAVING_SCHEDULE,
  ENVIRONMENT_TEMPLATES,
  replicaDefaults,
  type IacTool,
  type InfraCloudProvider,
  type Stage,
  type TemplateName,
  type Weekday,
} from '@gantry/contracts';
import type { FieldPath, FormApi } from '../../../ui/form';
import { browserTimezone } from '../../../ui/ScheduleTimeFields';

export type EnvironmentFormMode = 'create' | 'edit' | 'replicate';
export type TemplateValues = Record<string, string | number>;
export type SavingScheduleValues = { name: string; days: Weekday[]; wakeHour: number; sleepHour: number; timezone: string };

/**
 * The environment form's values (spec §2): the stage's own fields (what StageBody checks), plus the template and
 * its inputs, and the saving schedule (checked with SavingScheduleFields when saving is on).
 */
export type EnvironmentFormValues = {
  name: string;
  description: string;
  cloudProvider: InfraCloudProvider;
  infrastructureAsCodeTool: IacTool;
  awsAccountId: string;
  awsRegion: string;
  tenantId: string;
  subscriptionId: string;
  gcpProjectId: string;
  gcpRegion: string;
  gcpZone: string;
  template: TemplateName | null;
  templateValues: TemplateValues;
  saving: boolean;
  schedule: SavingScheduleValues;
};
export type EnvironmentForm = FormApi<EnvironmentFormValues>;

const STAGE_FIELDS = [
  'name',
  'description',
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
/** What StageBody is given: the stage's own fields. */
export const stageInput = (v: EnvironmentFormValues) => Object.fromEntries(STAGE_FIELDS.map((k) => [k, v[k]]));

/** A fresh saving schedule: weekdays 08:00 to 18:00 in the browser's zone. */
export const defaultSchedule = (): SavingScheduleValues => ({
  name: '',
  days: DEFAULT_SAVING_SCHEDULE.days,
  wakeHour: DEFAULT_SAVING_SCHEDULE.wakeHour,
  sleepHour: DEFAULT_SAVING_SCHEDULE.sleepHour,
  timezone: browserTimezone(),
});

/** Template defaults (spec §2: 1 replica, CPU 256, memory 512, sqlite). */
export const templateDefaults = (t: TemplateName): TemplateValues =>
  Object.fromEntries(ENVIRONMENT_TEMPLATES[t].inputs.filter((i) => i.default !== undefined).map((i) => [i.key, i.default!]));

/** The form's starting values: empty (a template from the address picks AWS and Cloudformation), the environment's own (edit), or its replica defaults. */
export function initialEnvironmentValues(mode: EnvironmentFormMode, stage: Stage | undefined, template: TemplateName | null): EnvironmentFormValues {
  const base: EnvironmentFormValues = {
    name: '',
    description: '',
    cloudProvider: 'aws',
    infrastructureAsCodeTool: 'terraform',
    awsAccountId: '',
    awsRegion: '',
    tenantId: '',
    subscriptionId: '',
    gcpProjectId: '',
    gcpRegion: '',
    gcpZone: '',
    template: null,
    templateValues: {},
    saving: false,
    schedule: defaultSchedule(),
  };
  if (!stage) return template ? { ...base, template, templateValues: templateDefaults(template), infrastructureAsCodeTool: 'cloudformation' } : base;
  const own: EnvironmentFormValues = {
    ...base,
    name: stage.name,
    description: stage.description,
    cloudProvider: stage.cloudProvider,
    infrastructureAsCodeTool: stage.infrastructureAsCodeTool,
    awsAccountId: stage.awsAccountId ?? '',
    awsRegion: stage.awsRegion ?? '',
    tenantId: stage.tenantId ?? '',
    subscriptionId: stage.subscriptionId ?? '',
    gcpProjectId: stage.gcpProjectId ?? '',
    gcpRegion: stage.gcpRegion ?? '',
    gcpZone: stage.gcpZone ?? '',
  };
  return mode === 'replicate' ? { ...own, ...replicaDefaults(stage) } : own;
}

type TextField = Extract<FieldPath<EnvironmentFormValues>, 'awsAccountId' | 'awsRegion' | 'gcpProjectId' | 'gcpZone'>;
/**
 * A Select over a text field: a cleared choice is '' (what StageBody's messages expect), as before. The Select is given
 * null for '': given '', it kept showing the option chosen before (a zone of the GCP region just changed, cleared in the
 * form, still read 'europe-west1-b').
 */
export const textSelect = (form: EnvironmentForm, path: TextField) => {
  const props = form.getInputProps(path);
  return { ...props, value: (props.value as string | undefined) || null, onChange: (v: string | null) => form.setFieldValue(path, v ?? '') };
};
