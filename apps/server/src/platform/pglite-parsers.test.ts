import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { date, integer, interval, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { eq } from 'drizzle-orm';
import { drizzleParsersOnClient } from './pglite-parsers.js';

const runs = pgTable('runs', {
  id: text('id').primaryKey(),
  at: timestamp('at', { withTimezone: true }).notNull(),
  localAt: timestamp('local_at').notNull(),
  day: date('day').notNull(),
  took: interval('took').notNull(),
  n: integer('n').notNull(),
});
const AT = new Date('2026-11-24T09:30:00.123Z');

let client: PGlite;
/** The options each query reached PGlite's own query with. */
const reached: unknown[] = [];

beforeAll(async () => {
  client = await PGlite.create();
  const query = client.query.bind(client);
  client.query = ((text: string, params?: unknown[], options?: unknown) => {
    reached.push(options);
    return query(text, params, options as never);
  }) as PGlite['query'];
  drizzleParsersOnClient(client);
  await client.exec(
    `create table runs (id text primary key, at timestamptz not null, local_at timestamp not null, day date not null, took interval not null, n int not null)`,
  );
});
afterAll(() => client.close());

describe('PGlite with the types drizzle reads as text on the client', () => {
  it("drizzle's queries reach PGlite without parsers, and read every column as drizzle maps it", async () => {
    const db = drizzle({ client });
    await db.insert(runs).values({ id: 'a', at: AT, localAt: AT, day: '2026-11-24', took: '00:00:05', n: 3 });
    reached.length = 0;
    const [row] = await db.select().from(runs).where(eq(runs.id, 'a'));
    expect(reached).toHaveLength(1);
    expect(reached[0]).not.toHaveProperty('parsers');
    expect(row).toEqual({ id: 'a', at: AT, localAt: AT, day: '2026-11-24', took: '00:00:05', n: 3 });
  });

  it('the same in a transaction, written and read back', async () => {
    const db = drizzle({ client });
    const later = new Date(AT.getTime() + 60_000);
    const [row] = await db.transaction(async (tx) => {
      await tx.update(runs).set({ at: later }).where(eq(runs.id, 'a'));
      return tx.select().from(runs).where(eq(runs.id, 'a'));
    });
    expect(row!.at).toEqual(later);
    expect(row!.day).toBe('2026-11-24');
  });

  it("other callers (pg-boss's SQL, the watchers) read timestamps and dates as PGlite's usual Dates, in and out of transactions", async () => {
    const { rows } = await client.query<{ at: unknown; day: unknown }>('select at, day from runs');
    expect(rows[0]!.at).toBeInstanceOf(Date);
    expect(rows[0]!.day).toBeInstanceOf(Date);
    const [execd] = await client.exec('select at from runs');
    expect((execd!.rows[0] as { at: unknown }).at).toBeInstanceOf(Date);
    const inTx = await client.transaction(async (tx) => (await tx.query<{ at: unknown }>('select at from runs')).rows[0]!.at);
    expect(inTx).toBeInstanceOf(Date);
  });
});
