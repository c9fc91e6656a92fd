import { desc, eq, inArray } from 'drizzle-orm';
import type { Db } from './db.js';
import { outboxMails } from './mail.tables.js';

/** The outbox table: every mail Gantry sends, with its delivery state. */
export function createMailStore(db: Db) {
  return {
    get: async (id: string) => (await db.select().from(outboxMails).where(eq(outboxMails.id, id)))[0],
    byIds: async (ids: string[]) =>
      ids.length
        ? await db
            .select({ id: outboxMails.id, to: outboxMails.to, sentAt: outboxMails.sentAt, error: outboxMails.error })
            .from(outboxMails)
            .where(inArray(outboxMails.id, ids))
        : [],
    insert: async (values: typeof outboxMails.$inferInsert) => (await db.insert(outboxMails).values(values).returning({ id: outboxMails.id }))[0]!,
    update: (id: string, values: Partial<typeof outboxMails.$inferInsert>) => db.update(outboxMails).set(values).where(eq(outboxMails.id, id)),
    newest: (limit: number) => db.select().from(outboxMails).orderBy(desc(outboxMails.createdAt)).limit(limit),
  };
}
