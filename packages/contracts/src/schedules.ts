import { z } from 'zod';
import { InputText } from './common.js';

/** DESIGN §8 tag keys: `gantry:environment` on environment resources, `gantry:cost-optimizer` on scheduled ones. */
export const ENVIRONMENT_TAG_KEY = 'gantry:environment';
export const COST_TAG_KEY = 'gantry:cost-optimizer';

export const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
/** Spec §2/§9: wake 08:00, sleep 18:00, Monday to Friday. */
export const DEFAULT_SAVING_SCHEDULE = { wakeHour: 8, sleepHour: 18, days: ['MON', 'TUE', 'WED', 'THU', 'FRI'] as Weekday[] };
/** Hours run 00 to 23 in one-hour steps. */
export const SCHEDULE_HOURS = Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`);

export const scheduleMessages = {
  name: 'Please enter a schedule name',
  range: 'Please select at least one day and time range',
} as const;

/**
 * One local (day, hour) moved to UTC. `offsetMinutes` is the browser's `Date#getTimezoneOffset()`
 * (UTC minus local, e.g. -120 in UTC+2); the day rolls over at midnight both ways.
 */
export function shiftToUtc(day: Weekday, hour: number, offsetMinutes: number): { day: Weekday; hour: number; minute: number } {
  let minutes = hour * 60 + offsetMinutes;
  let d = WEEKDAYS.indexOf(day);
  while (minutes < 0) {
    minutes += 24 * 60;
    d -= 1;
  }
  while (minutes >= 24 * 60) {
    minutes -= 24 * 60;
    d += 1;
  }
  return { day: WEEKDAYS[(d + 7) % 7]!, hour: Math.floor(minutes / 60), minute: minutes % 60 };
}

/**
 * A saving schedule as cron expressions in UTC (EventBridge form `cron(m h ? * DAYS *)`): wake and
 * sleep on the chosen days, each shifted from the browser's offset. Days that share a UTC time are
 * listed together, in week order.
 */
export function scheduleToCron(
  input: { days: Weekday[]; wakeHour: number; sleepHour: number },
  offsetMinutes: number,
): { startExpression: string; stopExpression: string } {
  const expr = (hour: number) => {
    const shifted = WEEKDAYS.filter((d) => input.days.includes(d)).map((d) => shiftToUtc(d, hour, offsetMinutes));
    if (!shifted.length) return '';
    const { minute, hour: h } = shifted[0]!;
    const days = WEEKDAYS.filter((d) => shifted.some((s) => s.day === d));
    return `cron(${minute} ${h} ? * ${days.join(',')} *)`;
  };
  return { startExpression: expr(input.wakeHour), stopExpression: expr(input.sleepHour) };
}

/** Reads back what `scheduleToCron` wrote, in the browser's zone (for the edit form). */
export function cronToSchedule(
  startExpression: string,
  stopExpression: string,
  offsetMinutes: number,
): { days: Weekday[]; wakeHour: number; sleepHour: number } | null {
  const parse = (e: string) => {
    const m = /^cron\((\d+) (\d+) \? \* ([A-Z,]+) \*\)$/.exec(e);
    if (!m) return null;
    return { minute: Number(m[1]), hour: Number(m[2]), days: m[3]!.split(',') as Weekday[] };
  };
  const start = parse(startExpression);
  const stop = parse(stopExpression);
  if (!start || !stop) return null;
  // back from UTC: the inverse shift
  const local = (p: { minute: number; hour: number; days: Weekday[] }) => p.days.map((d) => shiftToUtc(d, p.hour + p.minute / 60, -offsetMinutes));
  const wake = local(start);
  const sleep = local(stop);
  return { days: WEEKDAYS.filter((d) => wake.some((w) => w.day === d)), wakeHour: wake[0]!.hour, sleepHour: sleep[0]!.hour };
}

/** The saving-schedule fields of the environment form (spec §2); disabled → no schedule. */
export const SavingScheduleFields = z
  .object({
    name: InputText().trim().min(1, scheduleMessages.name).max(64),
    days: z.array(z.enum(WEEKDAYS)).min(1, scheduleMessages.range),
    wakeHour: z.number().int().min(0).max(23),
    sleepHour: z.number().int().min(0).max(23),
    timezone: InputText().min(1),
  })
  .refine((v) => v.wakeHour !== v.sleepHour, { path: ['sleepHour'], message: scheduleMessages.range });
export type SavingScheduleFields = z.infer<typeof SavingScheduleFields>;

/** A schedule rule (spec §3 "Schedule rule"): what the cost tool stores and runs. */
export const ScheduleBody = z.object({
  name: InputText().trim().min(1, scheduleMessages.name).max(64),
  startExpression: InputText().min(1, scheduleMessages.range),
  stopExpression: InputText().min(1, scheduleMessages.range),
  timezone: InputText().default('UTC'),
  awsAccountId: InputText().min(1),
  awsRegion: InputText().min(1),
  resourcesTagKey: InputText().default(COST_TAG_KEY),
  resourcesTagValue: InputText().min(1),
  state: z.enum(['ENABLED', 'DISABLED']).default('ENABLED'),
});
export type ScheduleBody = z.input<typeof ScheduleBody>;
export const Schedule = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(['ENABLED', 'DISABLED']),
  startExpression: z.string(),
  stopExpression: z.string(),
  timezone: z.string(),
  awsAccountId: z.string(),
  awsRegion: z.string(),
  resourcesTagKey: z.string(),
  resourcesTagValue: z.string(),
  /** TAG: covers whatever carries the tag; RESOURCES: the resources chosen in the cost tool (tagged by Gantry). The server always sends it. */
  selectBy: z.enum(['TAG', 'RESOURCES']).optional(),
  createdAt: z.string(),
});
export type Schedule = z.infer<typeof Schedule>;

/** changeStateAllResources (spec §7): start or stop every resource a schedule covers, now. */
export const ScheduleActionBody = z.object({ action: z.enum(['start', 'stop'], { error: 'Please choose start or stop' }) });
export type ScheduleActionBody = z.infer<typeof ScheduleActionBody>;
/** What was started or stopped: EC2 instance ids, Auto Scaling group names, DB instance identifiers. */
export const ScheduleActionResult = z.object({ ec2: z.array(z.string()), asg: z.array(z.string()), rds: z.array(z.string()) });
export type ScheduleActionResult = z.infer<typeof ScheduleActionResult>;
/** Spec §8 success toast. */
export const scheduleActionToast = (action: 'start' | 'stop') =>
  `Successfully initiated ${action.toUpperCase()} action on affected resources with this schedule.`;
