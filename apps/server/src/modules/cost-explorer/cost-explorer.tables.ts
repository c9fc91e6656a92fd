import { pgTable, uuid, text, timestamp, jsonb, index, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CostData } from '@gantry/contracts';
import { projects } from '../projects/projects.tables.js';

/** The last cost dashboard per project: Cost Explorer requests cost money, so screens read this. */
export const costDashboards = pgTable('cost_dashboards', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  data: jsonb('data').$type<CostData>().notNull(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
});

/** A cost report (spec §3): mailed every week or month to its addresses. */
export const costReports = pgTable(
  'cost_reports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    reportName: text('report_name').notNull(),
    awsAccountIds: jsonb('aws_account_ids').$type<string[]>().notNull(),
    regions: jsonb('regions').$type<string[]>().notNull(),
    emails: jsonb('emails').$type<string[]>().notNull(),
    granularity: text('granularity', { enum: ['WEEKLY', 'MONTHLY'] }).notNull(),
    costAllocationTag: text('cost_allocation_tag'),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('cost_reports_project_idx').on(t.projectId)],
);

/**
 * One mailing of a report. The unique key is the scheduler's claim: a due send time is mailed by
 * the one worker whose insert succeeds. "Send now" is MANUAL, keyed by when it was asked.
 */
export const costReportSends = pgTable(
  'cost_report_sends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    reportId: uuid('report_id')
      .notNull()
      .references(() => costReports.id, { onDelete: 'cascade' }),
    trigger: text('trigger', { enum: ['SCHEDULE', 'MANUAL'] }).notNull(),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['RUNNING', 'SENT', 'FAILED'] })
      .notNull()
      .default('RUNNING'),
    error: text('error'),
    /** The outbox mails it queued, one per address: their delivery is the send's outcome a user sees. */
    mailIds: jsonb('mail_ids').$type<string[]>(),
  },
  (t) => [index('cost_report_sends_report_idx').on(t.reportId), uniqueIndex('cost_report_sends_claim_idx').on(t.reportId, t.trigger, t.scheduledFor)],
);
