import { pgTable, uuid, text, timestamp, boolean, jsonb, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables.js';
import { gitAccounts } from '../git-accounts/git-accounts.tables.js';

export interface StoredVariable {
  key: string;
  value: string;
  sensitive: boolean;
} // value sealed when sensitive

export const pipelines = pgTable(
  'pipelines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    gitAccountId: uuid('git_account_id')
      .notNull()
      .references(() => gitAccounts.id, { onDelete: 'restrict' }),
    repositoryUrl: text('repository_url').notNull(),
    repositoryFullName: text('repository_full_name').notNull(),
    branchFilter: text('branch_filter').notNull(),
    automatedTrigger: boolean('automated_trigger').notNull(),
    workDir: text('work_dir').notNull(),
    modifiedFiles: text('modified_files').notNull(),
    environmentVariables: jsonb('environment_variables').$type<StoredVariable[]>().notNull(),
    specYaml: text('spec_yaml'),
    webhookId: text('webhook_id'),
    webhookSecretSealed: text('webhook_secret_sealed'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('pipelines_project_name_key').on(t.projectId, t.name), index('pipelines_git_account_idx').on(t.gitAccountId)],
);
