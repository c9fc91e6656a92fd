import { pgTable, uuid, text, timestamp, jsonb, uniqueIndex } from 'drizzle-orm/pg-core';
import type { AdvisorStats } from '@gantry/contracts';
import { projects } from '../projects/projects.tables.js';

/** The last waste advisor result per project, AWS account, region and tag ('' = no tag): CloudWatch calls cost money. */
export const advisorResults = pgTable(
  'advisor_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    awsAccountId: text('aws_account_id').notNull(),
    awsRegion: text('aws_region').notNull(),
    tagKey: text('tag_key').notNull().default(''),
    tagValue: text('tag_value').notNull().default(''),
    stats: jsonb('stats').$type<AdvisorStats>().notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('advisor_results_key_idx').on(t.projectId, t.awsAccountId, t.awsRegion, t.tagKey, t.tagValue)],
);
