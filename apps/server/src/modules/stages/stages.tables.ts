import { pgTable, uuid, text, timestamp, uniqueIndex, jsonb, boolean, index } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables.js';

/** An environment (the API says stage): where components are assembled and deployed. */
export const stages = pgTable(
  'stages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    status: text('status').notNull().default('NOT_DEPLOYED'),
    cloudProvider: text('cloud_provider', { enum: ['aws', 'azurerm', 'google'] }).notNull(),
    iacTool: text('iac_tool', { enum: ['terraform', 'cloudformation'] }).notNull(),
    awsAccountId: text('aws_account_id'),
    awsRegion: text('aws_region'),
    tenantId: text('tenant_id'),
    subscriptionId: text('subscription_id'),
    gcpProjectId: text('gcp_project_id'),
    gcpRegion: text('gcp_region'),
    gcpZone: text('gcp_zone'),
    copyFrom: uuid('copy_from'),
    lastDeployed: timestamp('last_deployed', { withTimezone: true }),
    lastDeploymentId: uuid('last_deployment_id'),
    currentDeploymentId: uuid('current_deployment_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('stages_project_name_key').on(t.projectId, t.name)],
);

export interface StoredConfiguration {
  key: string;
  value: string | number | boolean;
  sensitive: boolean;
  reference: boolean;
} // sensitive values sealed

/** A component placed in an environment, at a version, with its input values. */
export const stageResources = pgTable(
  'stage_resources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stageId: uuid('stage_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    componentId: uuid('component_id').notNull(),
    componentVersion: text('component_version').notNull(),
    configurations: jsonb('configurations').$type<StoredConfiguration[]>().notNull(),
    status: text('status').notNull().default('NOT_DEPLOYED'),
    isDeployed: boolean('is_deployed').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('stage_resources_stage_name_key').on(t.stageId, t.name), index('stage_resources_component_idx').on(t.componentId)],
);
