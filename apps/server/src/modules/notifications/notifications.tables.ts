import { sql } from 'drizzle-orm';
import { pgTable, uuid, text, timestamp, boolean, index, uniqueIndex, primaryKey } from 'drizzle-orm/pg-core';
import { projects } from '../projects/projects.tables.js';
import { users } from '../users/users.tables.js';

/** One row per recipient, so read state is each user's own. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    author: text('author').notNull(),
    message: text('message').notNull(),
    entityType: text('entity_type', { enum: ['PIPELINE', 'STAGE', 'SERVICE'] }).notNull(),
    itemId: text('item_id').notNull(),
    version: text('version'),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_created_idx').on(t.userId, t.createdAt),
    // marking a project's notifications read visits its unread ones only, not every one the user ever had
    index('notifications_user_project_unread_idx')
      .on(t.userId, t.projectId)
      .where(sql`not ${t.isRead}`),
  ],
);

/** A project's chat integration (spec §2.9: Slack, one per project). The webhook URL is sealed: whoever holds it may post. */
export const notificationIntegrations = pgTable(
  'notification_integrations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['slack'] }).notNull(),
    webhookUrlSealed: text('webhook_url_sealed').notNull(),
    webhookHost: text('webhook_host').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('notification_integrations_project_type_key').on(t.projectId, t.type)],
);

/**
 * Members who unsubscribed from a project's notifications. Every member is subscribed until they opt out,
 * so a new member hears of the project's builds without a step of their own.
 */
export const notificationOptOuts = pgTable(
  'notification_opt_outs',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.userId] })],
);
