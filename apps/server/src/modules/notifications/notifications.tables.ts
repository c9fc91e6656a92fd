import { pgTable, uuid, text, timestamp, boolean, index } from 'drizzle-orm/pg-core';
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
    entityType: text('entity_type', { enum: ['PIPELINE', 'STAGE'] }).notNull(),
    itemId: text('item_id').notNull(),
    version: text('version'),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notifications_user_created_idx').on(t.userId, t.createdAt)],
);
