import { sql } from 'drizzle-orm';
import { pgTable, uuid, text, timestamp, boolean, jsonb, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables.js';
import { users } from '../users/users.tables.js';

/**
 * A Docker registry of a project (spec delivery §3). `credentials` holds the provider's non-sensitive keys in
 * plain text; the sensitive ones (passwords, secret keys) are one sealed JSON object in `secretsSealed`.
 * At most one registry per project is the default (partial unique index).
 */
export const dockerRegistries = pgTable(
  'docker_registries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    provider: text('provider').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    credentials: jsonb('credentials').$type<Record<string, string>>().notNull(),
    secretsSealed: text('secrets_sealed').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('docker_registries_project_name_key').on(t.projectId, t.name),
    uniqueIndex('docker_registries_project_default_key')
      .on(t.projectId)
      .where(sql`${t.isDefault}`),
  ],
);
