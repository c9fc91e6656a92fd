import { pgTable, uuid, text, timestamp, index } from 'drizzle-orm/pg-core';
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('schedules_project_idx').on(t.projectId), index('schedules_tag_idx').on(t.resourcesTagKey, t.resourcesTagValue)],
);
