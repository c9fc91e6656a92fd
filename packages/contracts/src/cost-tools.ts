/**
 * Cloud Waste Manager (account-and-platform.md §2.10, §3, §5, §7–§9): waste advisor, saving
 * schedules with their runs and resources, cost explorer, cost reports.
 *
 * Saving schedules are ONE entity with the environment form's saving schedule (the `schedules`
 * module and `./schedules.ts`): a rule is wake/sleep cron expressions in UTC over the resources of
 * an AWS account and region carrying `resourcesTagKey = resourcesTagValue`. Environments tag with
 * `gantry:cost-optimizer = <stageId>`; the cost tool generates a unique value and tags the chosen
 * resources with it. What this file adds: selecting resources on create, enable/disable, runs,
 * resources with prices, the savings estimate.
 *
 * Every tool answers 402 when the project's plan lacks `cloudCostOptimizer`. Reads need the
 * project's `read` role, changes `write` (403 otherwise); another project's ids answer 404.
 *
 * REST paths, all under `/ms-cloud-cost-optimizer/projects/:projectId`:
 *
 * Waste advisor
 *   GET    /advisor?awsAccountId&awsRegion[&tagKey&tagValue]  → AdvisorResult   cached result (computed once when none is cached)
 *   POST   /advisor   body AdvisorQuery                        → AdvisorResult   "Get statistics": fresh from CloudWatch, cached
 *
 * Saving schedules (existing list/create/update/delete/actions, extended)
 *   GET    /schedules                                          → { schedules: Schedule[] }
 *   POST   /schedules          body SavingScheduleBody          → 201 Schedule     tags the selected resources
 *   GET    /schedules/:scheduleId                              → SavingScheduleDetail (schedule + its tagged resources)
 *   PUT    /schedules/:scheduleId  body SavingScheduleBody      → Schedule
 *   PATCH  /schedules/:scheduleId/state  body ScheduleStateBody → Schedule        enable/disable (optionally start the resources)
 *   POST   /schedules/:scheduleId/actions  body ScheduleActionBody → ScheduleActionResult   Start All / Stop All now
 *   GET    /schedules/:scheduleId/runs                         → { runs: ScheduleRun[] }  newest first, 50 at most
 *   DELETE /schedules/:scheduleId                              → { ok: true }
 *   GET    /resources?awsAccountId&awsRegion                   → CloudResources   EC2, ASG, RDS with Pricing data
 *
 * Cost explorer
 *   GET    /cost                                               → CostDashboard    cached only (never calls AWS; data null until refreshed)
 *   POST   /cost/refresh                                       → CostDashboard    calls Cost Explorer for every AWS account, caches
 *
 * Reports
 *   GET    /reports                                            → { reports: Report[] }
 *   POST   /reports            body ReportBody                  → 201 Report
 *   GET    /reports/:reportId                                  → Report
 *   PUT    /reports/:reportId  body ReportBody                  → Report
 *   DELETE /reports/:reportId                                  → { ok: true }
 *   POST   /reports/:reportId/send                             → ReportSendResult  "Send now": takes over a failed send of the same period awaiting its retry; 409 while one is being sent
 */
import { z } from 'zod';
import { InputText, Email } from './common.js';
import { COST_TAG_KEY, ScheduleBody, Schedule, type Weekday } from './schedules.js';

// ——— Waste advisor ———————————————————————————————————————————————————————————

/** Spec §9 waste advisor rules, shared by the server's rules and the screens' texts. */
export const ADVISOR_RULES = {
  ec2CpuPercentMax: 10,
  ec2NetworkBytesMax: 5 * 1024 * 1024,
  ec2LowDaysMin: 4,
  ec2Days: 14,
  lbRequestsPerDayMin: 100,
  lbDays: 7,
  rdsConnectionsMax: 0,
  rdsDays: 7,
} as const;

export const AdvisorQuery = z.object({
  awsAccountId: InputText().min(1, 'Please select an AWS account'),
  awsRegion: InputText().min(1, 'Please select a region'),
  tagKey: InputText().min(1).optional(),
  tagValue: InputText().min(1).optional(),
});
export type AdvisorQuery = z.infer<typeof AdvisorQuery>;

/** SUCCESS: the section was computed; FAILED: its AWS calls failed (`error` says why). */
export const AdvisorStatus = z.enum(['SUCCESS', 'FAILED']);
export const AdvisorEc2Instance = z.object({
  instanceId: z.string(),
  name: z.string().nullable(),
  instanceType: z.string().nullable(),
  /** Days (of the last 14) with average CPU ≤ 10 % and NetworkIn+NetworkOut ≤ 5 MB. */
  lowDays: z.number(),
  averageCpuPercent: z.number().nullable(),
});
export const AdvisorLoadBalancer = z.object({
  name: z.string(),
  arn: z.string().nullable(),
  type: z.enum(['classic', 'application', 'network', 'gateway']),
  /** The busiest day's RequestCount (classic, application) or ActiveFlowCount (network, gateway) over 7 days. */
  maxDailyCount: z.number(),
});
export const AdvisorDbInstance = z.object({
  dbInstanceIdentifier: z.string(),
  engine: z.string().nullable(),
  dbInstanceClass: z.string().nullable(),
  maxConnections: z.number(),
});
export const AdvisorStats = z.object({
  ec2: z.object({
    status: AdvisorStatus,
    error: z.string().nullable(),
    lowUtilizationInstances: z.array(AdvisorEc2Instance),
    totalInstances: z.number(),
  }),
  elb: z.object({
    classicELBStats: z.object({ status: AdvisorStatus, error: z.string().nullable(), idleLoadBalancers: z.array(AdvisorLoadBalancer), total: z.number() }),
    nonClassicELBStats: z.object({ status: AdvisorStatus, error: z.string().nullable(), idleLoadBalancers: z.array(AdvisorLoadBalancer), total: z.number() }),
  }),
  rds: z.object({
    status: AdvisorStatus,
    error: z.string().nullable(),
    idleRelationalDBResources: z.array(AdvisorDbInstance),
    totalRelationalDBResources: z.number(),
  }),
});
export type AdvisorStats = z.infer<typeof AdvisorStats>;
/** A cached advisor result: when it was fetched and how old it is (seconds) at answer time. */
export const AdvisorResult = z.object({
  awsAccountId: z.string(),
  awsRegion: z.string(),
  tagKey: z.string().nullable(),
  tagValue: z.string().nullable(),
  stats: AdvisorStats,
  fetchedAt: z.string(),
  ageSeconds: z.number(),
});
export type AdvisorResult = z.infer<typeof AdvisorResult>;

/** The four card summaries of spec §2.10. */
export function advisorSummaries(s: AdvisorStats) {
  return {
    ec2: `${s.ec2.lowUtilizationInstances.length} of ${s.ec2.totalInstances} EC2 instances have low average daily utilization`,
    classicElb: `${s.elb.classicELBStats.idleLoadBalancers.length} classic load balancers appear idle`,
    nonClassicElb: `${s.elb.nonClassicELBStats.idleLoadBalancers.length} application, network and gateway load balancers appear idle`,
    rds: `${s.rds.idleRelationalDBResources.length} of ${s.rds.totalRelationalDBResources} DB instances appear idle`,
  };
}

// ——— Resources with prices ——————————————————————————————————————————————————

export const RESOURCE_TYPES = ['ec2', 'asg', 'rds'] as const;
export const ResourceType = z.enum(RESOURCE_TYPES);
export type ResourceType = z.infer<typeof ResourceType>;
export const ResourceTag = z.object({ key: z.string(), value: z.string() });
export const CloudResource = z.object({
  type: ResourceType,
  /** Instance id, Auto Scaling group name, or DB instance identifier. */
  id: z.string(),
  name: z.string(),
  arn: z.string().nullable(),
  /** AWS state: EC2 running/stopped/…, RDS available/stopped/…, ASG 'running' when desired > 0 else 'stopped'. */
  state: z.string(),
  /** Spec §2.10: running or available counts as running. */
  running: z.boolean(),
  instanceType: z.string().nullable(),
  /** On-demand USD per hour of one instance (Pricing API); an ASG's is per instance. null when Pricing has none. */
  price: z.number().nullable(),
  /** RDS storage USD per month; null elsewhere or unknown. */
  storagePrice: z.number().nullable(),
  ebsData: z.array(z.object({ volumeId: z.string(), volumeType: z.string(), sizeGb: z.number(), monthlyPrice: z.number().nullable() })),
  tags: z.array(ResourceTag),
  asgGroupCapacity: z.object({ desiredCapacity: z.number(), minSize: z.number(), maxSize: z.number() }).nullable(),
});
export type CloudResource = z.infer<typeof CloudResource>;
export const ResourcesQuery = z.object({ awsAccountId: InputText().min(1), awsRegion: InputText().min(1) });
export const CloudResources = z.object({ ec2: z.array(CloudResource), asg: z.array(CloudResource), rds: z.array(CloudResource) });
export type CloudResources = z.infer<typeof CloudResources>;

/** Spec §9: a month is 730 hours; utilized hours = hours awake per week × 4. */
export const HOURS_PER_MONTH = 730;
/** Hours awake in one day of the schedule (sleep before wake runs past midnight). */
export const awakeHoursPerDay = (wakeHour: number, sleepHour: number) => (sleepHour - wakeHour + 24) % 24;
/**
 * The savings estimate of spec §9 for resources at `hourlyPrice` USD (sum of the selected
 * resources' prices; ASG price × desired capacity): the utilized share of the month and the
 * monthly cost with and without the schedule, rounded to cents.
 */
export function estimateSavings(input: { days: Weekday[]; wakeHour: number; sleepHour: number; hourlyPrice: number }) {
  const utilizedHours = Math.min(HOURS_PER_MONTH, input.days.length * awakeHoursPerDay(input.wakeHour, input.sleepHour) * 4);
  const utilizedPercent = Math.round((utilizedHours / HOURS_PER_MONTH) * 10000) / 100;
  const round = (n: number) => Math.round(n * 100) / 100;
  const monthlyWithout = round(input.hourlyPrice * HOURS_PER_MONTH);
  const monthlyWith = round(input.hourlyPrice * utilizedHours);
  return {
    utilizedHours,
    utilizedPercent,
    savingPercent: round(100 - utilizedPercent),
    monthlyWithout,
    monthlyWith,
    monthlySaving: round(monthlyWithout - monthlyWith),
  };
}
/** The hourly price a resource adds to the estimate (ASG: per instance × desired capacity). */
export const resourceHourlyPrice = (r: CloudResource) => (r.price ?? 0) * (r.type === 'asg' ? (r.asgGroupCapacity?.desiredCapacity ?? 0) : 1);

// ——— Saving schedules ———————————————————————————————————————————————————————

export const savingScheduleMessages = {
  resources: 'You should have at least one resource selected to create saving schedule',
  tag: 'Please enter a tag key and value',
} as const;
export const ResourceRef = z.object({ type: ResourceType, id: InputText().min(1) });
export type ResourceRef = z.infer<typeof ResourceRef>;
/**
 * Create/update a saving schedule (spec §5). `selectBy: 'RESOURCES'`: the server generates the
 * tag value when none is given (`resourcesTagKey` = gantry:cost-optimizer) and tags every listed
 * resource with it (on update: resources added are tagged, resources left out are untagged);
 * at least one resource on create. `selectBy: 'TAG'`: the schedule covers whatever carries
 * `resourcesTagKey = resourcesTagValue` (both required), nothing is tagged.
 * Without `selectBy` the body is the environment form's (tag given, no resources).
 */
export const SavingScheduleBody = ScheduleBody.extend({
  resourcesTagKey: InputText().trim().default(COST_TAG_KEY),
  resourcesTagValue: InputText().trim().default(''),
  selectBy: z.enum(['RESOURCES', 'TAG']).default('TAG'),
  resources: z.array(ResourceRef).max(200).default([]),
}).superRefine((v, ctx) => {
  if (v.selectBy === 'TAG' && (!v.resourcesTagKey || !v.resourcesTagValue))
    ctx.addIssue({ code: 'custom', path: ['resourcesTagValue'], message: savingScheduleMessages.tag });
});
export type SavingScheduleBody = z.input<typeof SavingScheduleBody>;
export const ScheduleStateBody = z.object({
  state: z.enum(['ENABLED', 'DISABLED']),
  /** Disabling: also start the affected resources now (spec §2.10 "offers to start"). */
  startResources: z.boolean().default(false),
});
export type ScheduleStateBody = z.input<typeof ScheduleStateBody>;

export const ScheduleRunResources = z.object({ ec2: z.array(z.string()), asg: z.array(z.string()), rds: z.array(z.string()) });
/**
 * One start or stop of a schedule's resources: SCHEDULE (its cron fired), MANUAL (Start All /
 * Stop All, enable/disable), RDS_RESTOP (a DB AWS started on its own after 7 days, stopped again).
 */
export const ScheduleRun = z.object({
  id: z.string(),
  scheduleId: z.string(),
  action: z.enum(['start', 'stop']),
  trigger: z.enum(['SCHEDULE', 'MANUAL', 'RDS_RESTOP']),
  /** The minute the cron fired for (SCHEDULE), else when it was asked. */
  scheduledFor: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  status: z.enum(['RUNNING', 'SUCCEEDED', 'FAILED']),
  resources: ScheduleRunResources,
  error: z.string().nullable(),
});
export type ScheduleRun = z.infer<typeof ScheduleRun>;
export const ScheduleRuns = z.object({ runs: z.array(ScheduleRun) });
export const SavingScheduleDetail = z.object({ schedule: Schedule, resources: z.array(ResourceRef) });
export type SavingScheduleDetail = z.infer<typeof SavingScheduleDetail>;
/** Spec §2.10 list labels. */
export const scheduleStateLabel = (state: 'ENABLED' | 'DISABLED') => (state === 'ENABLED' ? 'ACTIVE' : 'NOT ACTIVE');
export const scheduleStateToast = (state: 'ENABLED' | 'DISABLED') => `Successfully ${state} schedule.`;

// ——— Cost explorer ——————————————————————————————————————————————————————————

export const INSUFFICIENT_HISTORY = 'Insufficient Historical Data';
/** Whole dollars (spec §9). */
export const CostAmount = z.number().int();
export const CostData = z.object({
  costForTheLastMonth: CostAmount,
  costForTheCurrentMonth: CostAmount,
  /** Current month per AWS account, highest first (the UI shows the top 3). */
  byAccount: z.array(z.object({ awsAccountId: z.string(), accountName: z.string().nullable(), amount: CostAmount })),
  /** Current month. */
  byService: z.object({ ec2: CostAmount, rds: CostAmount, allServices: CostAmount }),
  /** Current month by the `gantry:environment` allocation tag value (a stage id; '' = untagged), highest first. */
  byEnvironment: z.array(z.object({ tagValue: z.string(), amount: CostAmount })),
  /** The last 12 months including the current one, oldest first, month as YYYY-MM. */
  yearlyByMonth: z.array(z.object({ month: z.string(), amount: CostAmount })),
  /** GetCostForecast; null when AWS answered DataUnavailableException (show INSUFFICIENT_HISTORY). */
  estimates: z.object({ currentMonth: CostAmount.nullable(), nextYear: CostAmount.nullable() }),
  /** Accounts whose Cost Explorer calls failed, with the reason. */
  failures: z.array(z.object({ awsAccountId: z.string(), message: z.string() })),
});
export type CostData = z.infer<typeof CostData>;
export const CostDashboard = z.object({
  data: CostData.nullable(),
  fetchedAt: z.string().nullable(),
  ageSeconds: z.number().nullable(),
});
export type CostDashboard = z.infer<typeof CostDashboard>;

// ——— Reports ————————————————————————————————————————————————————————————————

export const REPORT_GRANULARITIES = ['WEEKLY', 'MONTHLY'] as const;
export const reportMessages = {
  name: 'Report name must be at least 3 characters',
  accounts: 'Please select at least one AWS account',
  regions: 'Please select at least one region',
  emails: 'Please enter at least one e-mail address',
} as const;
export const ReportBody = z.object({
  reportName: InputText().trim().min(3, reportMessages.name).max(64),
  awsAccountIds: z.array(InputText().min(1)).min(1, reportMessages.accounts).max(50),
  regions: z.array(InputText().min(1)).min(1, reportMessages.regions).max(30),
  /** Spec §5: spaces stripped, each a valid e-mail. */
  emails: z
    .array(z.preprocess((e) => (typeof e === 'string' ? e.replace(/\s+/g, '') : e), Email))
    .min(1, reportMessages.emails)
    .max(50),
  granularity: z.enum(REPORT_GRANULARITIES),
  costAllocationTag: InputText().trim().max(128).nullable().default(null),
});
export type ReportBody = z.input<typeof ReportBody>;
/**
 * A report's newest send (scheduled, or Send now) as its recipients got it: SENDING while it is prepared or its mails
 * wait for the mail server, SENT once every address got it, FAILED with what went wrong (the send's own failure, or the
 * mail server's answer for an address).
 */
export const ReportLastSend = z.object({
  trigger: z.enum(['SCHEDULE', 'MANUAL']),
  /** When it was started (its latest attempt). */
  at: z.string(),
  status: z.enum(['SENDING', 'SENT', 'FAILED']),
  error: z.string().nullable(),
  /** When Gantry tries a failed send again by itself (every 15 minutes within a day); null when it will not. */
  retryAt: z.string().nullable(),
});
export type ReportLastSend = z.infer<typeof ReportLastSend>;
export const Report = z.object({
  id: z.string(),
  reportName: z.string(),
  awsAccountIds: z.array(z.string()),
  regions: z.array(z.string()),
  emails: z.array(z.string()),
  granularity: z.enum(REPORT_GRANULARITIES),
  costAllocationTag: z.string().nullable(),
  lastSentAt: z.string().nullable(),
  nextSendAt: z.string(),
  createdAt: z.string(),
  /** Null before the first send. */
  lastSend: ReportLastSend.nullable(),
});
export type Report = z.infer<typeof Report>;
export const ReportSendResult = z.object({ sentTo: z.array(z.string()), sentAt: z.string() });
export type ReportSendResult = z.infer<typeof ReportSendResult>;
