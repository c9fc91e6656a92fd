import { pgTable, uuid, text, timestamp, jsonb, boolean, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables.js';
import { users } from '../users/users.tables.js';

/** A private Kubernetes service of a project (spec delivery §3 microservice); the public ones are a built-in catalogue. */
export const microservices = pgTable(
  'microservices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull(),
    /** Null: a public image (the form's 'Public Docker Image'). */
    registry: text('registry'),
    imageRepository: text('image_repository').notNull(),
    readme: text('readme').notNull().default(''),
    schema: jsonb('schema').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('microservices_project_name_key').on(t.projectId, t.name)],
);

/**
 * One deploy or undeploy of a service into a cluster's namespace (spec §3 deployment history; never capped). The
 * configuration a deploy applied (environment variables and MIC_AS_* values) is sealed: it may hold secrets; the
 * last successful one is what the next deploy dialog starts from. The cluster is named, not referenced: the
 * history outlives a removed cluster.
 */
export const serviceDeployments = pgTable(
  'service_deployments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    clusterId: text('cluster_id').notNull(),
    namespace: text('namespace').notNull(),
    serviceName: text('service_name').notNull(),
    isPublic: boolean('is_public').notNull(),
    /** IN_PROGRESS, SUCCEEDED, FAILED, UNDEPLOYED. */
    status: text('status').notNull(),
    version: text('version').notNull(),
    previousVersion: text('previous_version'),
    commit: text('commit'),
    error: text('error'),
    description: text('description').notNull().default(''),
    imageRepository: text('image_repository').notNull(),
    registry: text('registry'),
    initiatorKind: text('initiator_kind').notNull(),
    initiatorUserId: uuid('initiator_user_id').references(() => users.id, { onDelete: 'set null' }),
    initiatorEmail: text('initiator_email'),
    pipelineId: text('pipeline_id'),
    buildId: text('build_id'),
    configurationSealed: text('configuration_sealed'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('service_deployments_service_idx').on(t.projectId, t.serviceName, t.startedAt),
    index('service_deployments_cluster_idx').on(t.projectId, t.clusterId, t.namespace, t.serviceName, t.startedAt),
    index('service_deployments_project_started_idx').on(t.projectId, t.startedAt),
  ],
);
