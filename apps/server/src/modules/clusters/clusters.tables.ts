import { pgTable, uuid, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables.js';
import { users } from '../users/users.tables.js';

/**
 * A Kubernetes cluster of a project (spec delivery §3). Its API id is its name, unique per project. The token
 * is sealed (platform.secrets); the CA certificate is public material and stored as sent.
 */
export const kubernetesClusters = pgTable(
  'kubernetes_clusters',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    endpoint: text('endpoint').notNull(),
    tokenSealed: text('token_sealed').notNull(),
    caCertificate: text('ca_certificate'),
    associatedNamespace: text('associated_namespace'),
    type: text('type').notNull().default('personal'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('kubernetes_clusters_project_name_key').on(t.projectId, t.name)],
);
