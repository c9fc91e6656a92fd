import { pgTable, uuid, text, timestamp, boolean, unique, index, primaryKey } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables.js';
import { pipelines } from '../pipelines/pipelines.tables.js';

/**
 * Components (spec infrastructure-builder §3). A project's own component has `projectId` and is
 * built by `pipelineId` at `artifactStep`; a vendor component (shipped in `vendor-components/`,
 * seeded at start) has no project, `isPublic`, and its one version from the shipped files:
 * `vendorDir` (the folder name), `vendorHash` (content hash → version `vendor-<hash>`), `vendorSchema`
 * (the schema.json text) and `vendorReadme`.
 */
export const components = pgTable(
  'components',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    type: text('type').notNull(),
    description: text('description').notNull(),
    cloudProvider: text('cloud_provider', { enum: ['aws', 'azurerm', 'google'] }).notNull(),
    infrastructureAsCodeTool: text('infrastructure_as_code_tool', { enum: ['terraform', 'cloudformation'] }).notNull(),
    pipelineId: uuid('pipeline_id').references(() => pipelines.id, { onDelete: 'set null' }),
    artifactStep: text('artifact_step'),
    isPublic: boolean('is_public').notNull().default(false),
    vendorDir: text('vendor_dir'),
    vendorHash: text('vendor_hash'),
    vendorSchema: text('vendor_schema'), // raw schema.json text: jsonb would reorder the inputs
    vendorReadme: text('vendor_readme'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // one name per project, and one per vendor set (project null): nulls are not distinct
    unique('components_project_name_key').on(t.projectId, t.name).nullsNotDistinct(),
    index('components_pipeline_idx').on(t.pipelineId),
  ],
);

/** Grants of a component to other projects: READ for the grantee's members (spec §2 Share, §6). */
export const componentAccess = pgTable(
  'component_access',
  {
    componentId: uuid('component_id')
      .notNull()
      .references(() => components.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    permission: text('permission', { enum: ['read'] })
      .notNull()
      .default('read'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.componentId, t.projectId] }), index('component_access_project_idx').on(t.projectId)],
);
