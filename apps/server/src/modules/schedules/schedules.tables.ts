import { pgTable, uuid, text, timestamp, index, jsonb, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables.js';

/**
 * A saving schedule (spec §3 "Schedule rule"): wake and sleep cron expressions in UTC for the
 * resources of an AWS account and region that carry a tag (an environment's: gantry:cost-optimizer = stageId).
 */
export const schedules = pgTable(
  'schedules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    state: text('state', { enum: ['ENABLED', 'DISABLED'] })
      .notNull()
      .default('ENABLED'),
    startExpression: text('start_expression').notNull(),
    stopExpression: text('stop_expression').notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    awsAccountId: text('aws_account_id').notNull(),
    awsRegion: text('aws_region').notNull(),
    resourcesTagKey: text('resources_tag_key').notNull(),
    resourcesTagValue: text('resources_tag_value').notNull(),
    /** TAG: whatever carries the tag; RESOURCES: the chosen resources, which Gantry tagged. */
    selectBy: text('select_by', { enum: ['TAG', 'RESOURCES'] })
      .notNull()
      .default('TAG'),
    resources: jsonb('resources').$type<{ type: 'ec2' | 'asg' | 'rds'; id: string }[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('schedules_project_idx').on(t.projectId), index('schedules_tag_idx').on(t.resourcesTagKey, t.resourcesTagValue)],
);

/**
 * One start or stop of a schedule's resources. The unique key is the scheduler's claim: a cron
 * minute (or an hour of RDS re-stop checks) is run by the one worker whose insert succeeds.
 */
export const scheduleRuns = pgTable(
  'schedule_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scheduleId: uuid('schedule_id')
      .notNull()
      .references(() => schedules.id, { onDelete: 'cascade' }),
    action: text('action', { enum: ['start', 'stop'] }).notNull(),
    trigger: text('trigger', { enum: ['SCHEDULE', 'MANUAL', 'RDS_RESTOP'] }).notNull(),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    status: text('status', { enum: ['RUNNING', 'SUCCEEDED', 'FAILED'] })
      .notNull()
      .default('RUNNING'),
    resources: jsonb('resources').$type<{ ec2: string[]; asg: string[]; rds: string[] }>().notNull().default({ ec2: [], asg: [], rds: [] }),
    error: text('error'),
  },
  (t) => [
    uniqueIndex('schedule_runs_claim_idx').on(t.scheduleId, t.action, t.trigger, t.scheduledFor),
    index('schedule_runs_schedule_idx').on(t.scheduleId, t.startedAt),
  ],
);
