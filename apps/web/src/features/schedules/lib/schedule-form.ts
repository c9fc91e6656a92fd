import {
  COST_TAG_KEY,
  DEFAULT_SAVING_SCHEDULE,
  SavingScheduleBody,
  cronToSchedule,
  estimateSavings,
  resourceHourlyPrice,
  savingScheduleMessages,
  scheduleMessages,
  scheduleToCron,
  type CloudResource,
  type ResourceRef,
  type SavingScheduleDetail,
  type Weekday,
} from '@gantry/contracts';
import { browserTimezone } from '../../../ui/ScheduleTimeFields';

export type SelectBy = 'RESOURCES' | 'TAG';
/** The schedule form's values (spec §2.10, §5): name, days and hours in the browser's zone, where, and which resources. */
export type ScheduleFormValues = {
  name: string;
  days: Weekday[];
  wakeHour: number;
  sleepHour: number;
  timezone: string;
  awsAccountId: string;
  awsRegion: string;
  selectBy: SelectBy;
  resources: ResourceRef[];
  resourcesTagKey: string;
  resourcesTagValue: string;
};

/** A new schedule: weekdays 08:00 to 18:00 (spec §9), resources picked one by one. */
export const emptyScheduleForm = (): ScheduleFormValues => ({
  name: '',
  days: DEFAULT_SAVING_SCHEDULE.days,
  wakeHour: DEFAULT_SAVING_SCHEDULE.wakeHour,
  sleepHour: DEFAULT_SAVING_SCHEDULE.sleepHour,
  timezone: browserTimezone(),
  awsAccountId: '',
  awsRegion: '',
  selectBy: 'RESOURCES',
  resources: [],
  resourcesTagKey: '',
  resourcesTagValue: '',
});

/**
 * A stored schedule as form values, its UTC cron read back in the browser's zone. A schedule on the cost tag
 * (gantry:cost-optimizer, created from resources or by an environment) edits its resources; any other tag its filter.
 */
export function scheduleFormFrom(detail: SavingScheduleDetail, offsetMinutes: number): ScheduleFormValues {
  const s = detail.schedule;
  const times = cronToSchedule(s.startExpression, s.stopExpression, offsetMinutes);
  const byResources = s.resourcesTagKey === COST_TAG_KEY;
  return {
    ...emptyScheduleForm(),
    ...(times ?? {}),
    name: s.name,
    timezone: s.timezone,
    awsAccountId: s.awsAccountId,
    awsRegion: s.awsRegion,
    selectBy: byResources ? 'RESOURCES' : 'TAG',
    resources: detail.resources,
    resourcesTagKey: byResources ? '' : s.resourcesTagKey,
    resourcesTagValue: s.resourcesTagValue,
  };
}

/**
 * What the form sends: cron in UTC from the browser's offset (shared with the environment form), and either the chosen
 * resources (tagged with the schedule's cost tag by the server) or the tag filter. On edit, a schedule chosen by
 * resources keeps its tag value.
 */
export function toScheduleBody(v: ScheduleFormValues, offsetMinutes: number): SavingScheduleBody {
  const { startExpression, stopExpression } = scheduleToCron(v, offsetMinutes);
  const byResources = v.selectBy === 'RESOURCES';
  return {
    name: v.name,
    startExpression,
    stopExpression,
    timezone: v.timezone,
    awsAccountId: v.awsAccountId,
    awsRegion: v.awsRegion,
    selectBy: v.selectBy,
    resourcesTagKey: byResources ? COST_TAG_KEY : v.resourcesTagKey,
    resourcesTagValue: v.resourcesTagValue,
    resources: byResources ? v.resources : [],
  };
}

export const accountMessages = { awsAccountId: 'Please select an AWS account', awsRegion: 'Please select a region' } as const;

/**
 * The form's schema (validated on submit only, spec §5): the contract's body, plus what only the form knows — the
 * account and region picked, wake and sleep apart, and on create at least one resource unless filtering by tag.
 * Messages land on the form's own fields (days for the range, resources, the tag value).
 */
export const scheduleFormSchema = (creating: boolean) =>
  SavingScheduleBody.superRefine((b, ctx) => {
    if (!b.awsAccountId) ctx.addIssue({ code: 'custom', path: ['awsAccountId'], message: accountMessages.awsAccountId });
    if (!b.awsRegion) ctx.addIssue({ code: 'custom', path: ['awsRegion'], message: accountMessages.awsRegion });
    if (b.startExpression && b.startExpression === b.stopExpression) ctx.addIssue({ code: 'custom', path: ['days'], message: scheduleMessages.range });
    if (creating && b.selectBy === 'RESOURCES' && b.resources.length === 0)
      ctx.addIssue({ code: 'custom', path: ['resources'], message: savingScheduleMessages.resources });
  });

/** A resource's key in the picker and in `resources`. */
export const refKey = (r: { type: string; id: string }) => `${r.type}:${r.id}`;

/**
 * The savings estimate of spec §9 for the picked resources under the form's hours: the hourly price of each (an Auto
 * Scaling group's per instance × its desired capacity), summed. `priced` says how many had a price at all.
 */
export function scheduleEstimate(v: Pick<ScheduleFormValues, 'days' | 'wakeHour' | 'sleepHour'>, picked: CloudResource[]) {
  const hourlyPrice = picked.reduce((sum, r) => sum + resourceHourlyPrice(r), 0);
  return {
    ...estimateSavings({ days: v.days, wakeHour: v.wakeHour, sleepHour: v.sleepHour, hourlyPrice }),
    priced: picked.filter((r) => r.price !== null).length,
  };
}

/** Dollars with cents for prices and estimates ($1,234.50). */
export const usd = (n: number) => n.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** An hourly price as AWS shows it ($0.0116/h). */
export const hourly = (n: number | null) => (n === null ? '—' : `$${n.toFixed(4).replace(/0{1,2}$/, '')}/h`);
