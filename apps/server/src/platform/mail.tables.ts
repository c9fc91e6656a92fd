import { pgTable, uuid, text, timestamp, jsonb } from 'drizzle-orm/pg-core';

/** Every mail Gantry sends is recorded; with no SMTP server this is the instance's outbox. */
export const outboxMails = pgTable('outbox_mails', {
  id: uuid('id').primaryKey().defaultRandom(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html'),
  attachments: jsonb('attachments').$type<{ filename: string; contentType: string; content: string }[]>(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  error: text('error'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
