import { pgTable, uuid, text, timestamp, jsonb, integer, boolean, index, uniqueIndex, primaryKey, bigint } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { stages } from '../stages/stages.tables.js';
import { projects } from '../projects/projects.tables.js';

export interface DeployedResource {
  name: string;
  component: { id: string; name: string };
  componentVersion: string;
  version: string | null;
}
export type ErrorLogs = Record<string, { errorMessages: { logicalResourceId: string; resourceType: string; statusReason: string }[] }>;

/** One run against an environment: deploy (quick or a stored plan), undeploy of it or of one resource. */
export const deployments = pgTable(
  'deployments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stageId: uuid('stage_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull(),
    kind: text('kind', { enum: ['DEPLOY', 'PLAN_APPLY', 'UNDEPLOY', 'UNDEPLOY_RESOURCE'] }).notNull(),
    status: text('status').notNull().default('DEPLOY_QUEUED'),
    /** true while queued or running: at most one such row per environment (the partial unique index). */
    active: boolean('active').notNull().default(true),
    planId: uuid('plan_id'),
    resourceName: text('resource_name'),
    resources: jsonb('resources').$type<DeployedResource[]>().notNull().default([]),
    logs: jsonb('logs').$type<ErrorLogs>().notNull().default({}),
    error: text('error'),
    startedBy: uuid('started_by'),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    workerId: text('worker_id'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** The running terraform's pid (its process group) on the worker's host, null between commands. */
    processId: integer('process_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('deployments_stage_created_idx').on(t.stageId, t.createdAt),
    index('deployments_project_created_idx').on(t.projectId, t.createdAt),
    uniqueIndex('deployments_one_active_per_stage')
      .on(t.stageId)
      .where(sql`${t.active}`),
  ],
);

/** The masked terraform log of a deployment, in chunks (ordered by seq). */
export const deploymentLogs = pgTable(
  'deployment_logs',
  {
    deploymentId: uuid('deployment_id')
      .notNull()
      .references(() => deployments.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    text: text('text').notNull(),
  },
  (t) => [primaryKey({ columns: [t.deploymentId, t.seq] })],
);

export interface StoredPlanChange {
  action: string;
  resourceName: string;
  address: string;
  componentId: string | null;
  name: string | null;
  version: string | null;
}

/** A Terraform plan of an environment: the saved plan file (private, in the data dir) and what it changes. */
export const deploymentPlans = pgTable(
  'deployment_plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stageId: uuid('stage_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').notNull(),
    status: text('status', { enum: ['CREATING', 'READY', 'FAILED', 'APPLIED', 'EXPIRED'] })
      .notNull()
      .default('CREATING'),
    planFile: text('plan_file'),
    summary: jsonb('summary').$type<{ add: number; change: number; destroy: number }>(),
    changes: jsonb('changes').$type<StoredPlanChange[]>().notNull().default([]),
    /** The resources (and versions) the plan was made for: applying deploys exactly these. */
    resources: jsonb('resources').$type<DeployedResource[]>().notNull().default([]),
    error: text('error'),
    workerId: text('worker_id'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    processId: integer('process_id'),
    createdBy: uuid('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('deployment_plans_stage_idx').on(t.stageId)],
);

/**
 * An environment's Terraform state, sealed with the secret box (it holds sensitive inputs and outputs
 * in plain text). Unsealed only into the run's sandboxed work dir for the length of a run.
 */
export const terraformStates = pgTable('terraform_states', {
  stageId: uuid('stage_id')
    .primaryKey()
    .references(() => stages.id, { onDelete: 'cascade' }),
  sealed: text('sealed').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The timeline entries of a deleted environment's latest deployments, kept so the overview still
 * shows them (and says 'Environment {name} is no longer available' when one is opened).
 */
export const removedStageDeployments = pgTable(
  'removed_stage_deployments',
  {
    deploymentId: uuid('deployment_id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    stageId: uuid('stage_id').notNull(),
    stageName: text('stage_name').notNull(),
    status: text('status').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('removed_stage_deployments_project_at_idx').on(t.projectId, t.at)],
);

/**
 * Deployment time per project and month (UTC month of the run's end, as the plan check counts it), in ms:
 * added to in the transaction that writes a deployment's end, so the check at deploy reads one row
 * instead of summing the project's deployments.
 */
export const deploymentMinutes = pgTable(
  'deployment_minutes',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    month: timestamp('month', { withTimezone: true }).notNull(),
    ms: bigint('ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.month] })],
);
