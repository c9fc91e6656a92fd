import { pgTable, uuid, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables.js';
import { users } from '../users/users.tables.js';

/** A project's connection to a git provider account; tokens sealed with the secrets box. */
export const gitAccounts = pgTable(
  'git_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['github', 'gitlab', 'bitbucket'] }).notNull(),
    accountName: text('account_name').notNull(),
    externalId: text('external_id').notNull(),
    accessTokenSealed: text('access_token_sealed').notNull(),
    refreshTokenSealed: text('refresh_token_sealed'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('git_accounts_project_external_key').on(t.projectId, t.type, t.externalId)],
);
