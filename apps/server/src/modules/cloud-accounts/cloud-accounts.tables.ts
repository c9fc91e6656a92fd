import { pgTable, uuid, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables.js';
import { users } from '../users/users.tables.js';

/** An AWS account of a project: the IAM role Gantry assumes, with its external id sealed. */
export const awsAccounts = pgTable(
  'aws_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** The 12-digit AWS account id (fifth part of the role ARN); names the account in the API and in environments. */
    awsAccountId: text('aws_account_id').notNull(),
    accountName: text('account_name').notNull(),
    iamRole: text('iam_role').notNull(),
    externalIdSealed: text('external_id_sealed').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('aws_accounts_project_account_key').on(t.projectId, t.awsAccountId)],
);

/** A Google Cloud project of a project: the service account Gantry impersonates (no secret stored). */
export const gcpAccounts = pgTable(
  'gcp_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    gcpProjectId: text('gcp_project_id').notNull(),
    projectName: text('project_name').notNull(),
    targetServiceAccount: text('target_service_account').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('gcp_accounts_project_gcp_project_key').on(t.projectId, t.gcpProjectId)],
);

/** An Azure subscription of a project: the app registration's client secret sealed. */
export const azureAccounts = pgTable(
  'azure_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id').notNull(),
    subscriptionId: text('subscription_id').notNull(),
    applicationId: text('application_id').notNull(),
    subscriptionName: text('subscription_name').notNull(),
    clientSecretSealed: text('client_secret_sealed').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('azure_accounts_project_tenant_subscription_key').on(t.projectId, t.tenantId, t.subscriptionId)],
);
