import { pgTable, uuid, text, timestamp, integer, jsonb, bigserial, index, uniqueIndex, boolean, bigint, primaryKey } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables.js';
import { pipelines } from '../pipelines/pipelines.tables.js';

export const builds = pgTable(
  'builds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    pipelineId: uuid('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    status: text('status', { enum: ['SCHEDULING', 'QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'ABORTED'] }).notNull(),
    branch: text('branch').notNull(),
    commitSha: text('commit_sha'),
    commitMessage: text('commit_message'),
    commitAuthor: text('commit_author'),
    commitAvatar: text('commit_avatar'),
    trigger: text('trigger', { enum: ['manual', 'webhook', 'pipeline'] }).notNull(),
    triggeredBy: uuid('triggered_by'),
    specYaml: text('spec_yaml'),
    stages: jsonb('stages').$type<string[]>().notNull().default([]),
    errorMessage: text('error_message'),
    abortRequested: boolean('abort_requested').notNull().default(false),
    workerId: text('worker_id'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    startDate: timestamp('start_date', { withTimezone: true }),
    stopDate: timestamp('stop_date', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('builds_pipeline_number_key').on(t.pipelineId, t.number),
    // read backwards for newest first: per pipeline (list pages, cursors, the latest build; ties by id) and per project (timeline)
    index('builds_pipeline_created_idx').on(t.pipelineId, t.createdAt, t.id),
    index('builds_project_created_idx').on(t.projectId, t.createdAt),
    index('builds_project_status_idx').on(t.projectId, t.status),
  ],
);

/**
 * The last build number given per pipeline. A trigger takes the next in the statement that inserts its build: the
 * row's lock orders concurrent triggers of one pipeline, where a transaction with an advisory lock and a max() took
 * five round trips. A number is never given twice, nor reused after its build is deleted.
 */
export const buildNumbers = pgTable('build_numbers', {
  pipelineId: uuid('pipeline_id')
    .primaryKey()
    .references(() => pipelines.id, { onDelete: 'cascade' }),
  last: integer('last').notNull(),
});

export const buildSteps = pgTable(
  'build_steps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buildId: uuid('build_id')
      .notNull()
      .references(() => builds.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The spec's `title` of the step, shown on its card. */
    title: text('title'),
    stage: text('stage'),
    type: text('type').notNull(),
    position: integer('position').notNull(),
    status: text('status', { enum: ['SCHEDULING', 'QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'ABORTED'] }),
    errorMessage: text('error_message'),
    reports: jsonb('reports').$type<Record<string, unknown>>(),
    startDate: timestamp('start_date', { withTimezone: true }),
    stopDate: timestamp('stop_date', { withTimezone: true }),
  },
  (t) => [uniqueIndex('build_steps_build_name_key').on(t.buildId, t.name)],
);

/** Log lines in chunks, in order per step; fanned out live over socket.io as they are written. */
export const buildLogs = pgTable(
  'build_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    buildId: uuid('build_id')
      .notNull()
      .references(() => builds.id, { onDelete: 'cascade' }),
    step: text('step').notNull(),
    seq: integer('seq').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('build_logs_build_step_idx').on(t.buildId, t.step, t.seq)],
);

export const buildArtifacts = pgTable(
  'build_artifacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    buildId: uuid('build_id')
      .notNull()
      .references(() => builds.id, { onDelete: 'cascade' }),
    step: text('step').notNull(),
    kind: text('kind', { enum: ['files', 'json', 'reports'] }).notNull(),
    name: text('name').notNull(),
    location: text('location').notNull(),
    files: integer('files').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('build_artifacts_build_idx').on(t.buildId, t.step)],
);

/** Push deliveries already taken (provider's delivery id): a replayed webhook starts nothing. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    provider: text('provider').notNull(),
    deliveryId: text('delivery_id').notNull(),
    pipelineId: uuid('pipeline_id')
      .notNull()
      .references(() => pipelines.id, { onDelete: 'cascade' }),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.deliveryId] }), index('webhook_deliveries_received_idx').on(t.receivedAt)],
);

/**
 * Build minutes used per project and month (UTC month of the build's creation, as the plan counts
 * them), in ms: added to in the same transaction that writes a build's stop date, so the plan
 * check at trigger reads one row instead of summing every build of the month.
 */
export const buildMinutes = pgTable(
  'build_minutes',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    month: timestamp('month', { withTimezone: true }).notNull(),
    ms: bigint('ms', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.month] })],
);
