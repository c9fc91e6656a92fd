import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { openTestDatabase, until } from '../../test/helpers.js';
import { createReadCache, tablesWritten } from './read-cache.js';
import { openDatabase, type Database } from './db.js';

const notes = pgTable('cache_test_notes', { id: text('id').primaryKey(), body: text('body').notNull() });

describe('tablesWritten', () => {
  it('names the tables of insert, update and delete statements, without a schema', () => {
    expect(tablesWritten('insert into "projects" ("id") values ($1)')).toEqual(['projects']);
    expect(tablesWritten('update "project_members" set "permission" = $1')).toEqual(['project_members']);
    expect(tablesWritten('DELETE FROM pgboss.job WHERE id = $1')).toEqual(['job']);
    expect(tablesWritten('with x as (delete from "a" returning *) insert into "b" select * from x')).toEqual(['a', 'b']);
    expect(tablesWritten('select "updated_at" from "projects" where "id" = $1')).toEqual([]);
  });
});

describe('read cache (watch reported by hand)', () => {
  it('keeps a read until a table it reads is written, and keeps nothing read while a write is in flight', async () => {
    const cache = createReadCache();
    let loads = 0;
    let value = 'a';
    const read = cache.memo(['cache_test_notes'], async (id: string) => (loads++, `${id}:${value}`));
    expect(await read('x')).toBe('x:a');
    expect(await read('x')).toBe('x:a');
    expect(loads).toBe(1);

    cache.watch.writing(['cache_test_notes']);
    value = 'b';
    expect(await read('x')).toBe('x:b'); // in flight: read through, not kept
    expect(await read('x')).toBe('x:b');
    expect(loads).toBe(3);
    cache.watch.wrote(['cache_test_notes']);
    expect(await read('x')).toBe('x:b');
    expect(await read('x')).toBe('x:b');
    expect(loads).toBe(4);

    cache.watch.writing(['other_table']);
    expect(await read('x')).toBe('x:b');
    expect(loads).toBe(4);
  });

  it('drops a read that a write overtook while it ran', async () => {
    const cache = createReadCache();
    let release!: () => void;
    const slow = cache.memo(['cache_test_notes'], () => new Promise<string>((r) => (release = () => r('old'))));
    const first = slow();
    cache.watch.writing(['cache_test_notes']);
    cache.watch.wrote(['cache_test_notes']);
    release();
    expect(await first).toBe('old');
    let loads = 0;
    const fast = cache.memo(['cache_test_notes'], async () => (loads++, 'new'));
    await fast();
    await fast();
    expect(loads).toBe(1);
  });

  it('counts a write to a table as one to the tables its foreign keys cascade to', async () => {
    const cache = createReadCache();
    cache.watch.setDependents(new Map([['parents', ['cache_test_notes']]]));
    let loads = 0;
    const read = cache.memo(['cache_test_notes'], async () => loads++);
    await read();
    cache.watch.writing(['parents']);
    cache.watch.wrote(['parents']);
    await read();
    expect(loads).toBe(2);
  });

  it('loads again a value kept until a time once the clock reaches it', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_000 });
    try {
      const cache = createReadCache();
      let loads = 0;
      const read = cache.memo(['cache_test_notes'], async () => ({ n: ++loads, until: 2_000 }), { until: (v) => v.until });
      expect((await read()).n).toBe(1);
      vi.setSystemTime(1_999);
      expect((await read()).n).toBe(1);
      vi.setSystemTime(2_000);
      expect((await read()).n).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps nothing while the cross-process channel is down', async () => {
    const cache = createReadCache();
    let loads = 0;
    const read = cache.memo(['cache_test_notes'], async () => loads++);
    cache.watch.setShared(false);
    await read();
    await read();
    expect(loads).toBe(2);
    cache.watch.setShared(true);
    await read();
    await read();
    expect(loads).toBe(3);
  });
});

describe('read cache over the database', () => {
  let database: Database & { drop(): Promise<void> };
  beforeAll(async () => {
    database = await openTestDatabase();
    await database.executeSql('create table cache_test_notes (id text primary key, body text not null)');
    await database.db.insert(notes).values({ id: 'n1', body: 'first' });
  });
  afterAll(() => database.drop());

  const bodyOf = () =>
    database.cache.memo(['cache_test_notes'], async (id: string) => (await database.db.select().from(notes).where(eq(notes.id, id)))[0]?.body);

  it('sees a write made through the database, in a statement or in a transaction', async () => {
    const read = bodyOf();
    await until(
      () => read('n1'),
      (b) => b === 'first',
      'the first body',
    ); // on PostgreSQL once listening
    await database.db.update(notes).set({ body: 'second' }).where(eq(notes.id, 'n1'));
    expect(await read('n1')).toBe('second');
    await database.db.transaction(async (tx) => {
      await tx.update(notes).set({ body: 'third' }).where(eq(notes.id, 'n1'));
      await tx.execute(sql`select 1`);
    });
    expect(await read('n1')).toBe('third');
    await database.executeSql("update cache_test_notes set body = 'fourth' where id = 'n1'");
    expect(await read('n1')).toBe('fourth');
    await until(
      () => read('n1'),
      () => true,
      'a read',
    );
    let loads = 0;
    const counted = database.cache.memo(['cache_test_notes'], async () => ++loads);
    await until(
      () => counted(),
      (n) => n >= 1,
      'a first load',
    ); // on PostgreSQL once listening
    const before = loads;
    await counted();
    expect(loads).toBe(before); // kept again once the writes (and the transaction's) are over
  });

  it('keeps reads again after a transaction that wrote a table and one it cascades to', async () => {
    await database.executeSql('create table cache_test_tags (id text primary key)');
    database.cache.watch.setDependents(new Map([['cache_test_notes', ['cache_test_tags']]]));
    let loads = 0;
    const tags = database.cache.memo(['cache_test_tags'], async () => ++loads);
    await database.db.transaction(async (tx) => {
      await tx.update(notes).set({ body: 'fifth' }).where(eq(notes.id, 'n1'));
      await tx.execute(sql`insert into cache_test_tags values ('t1')`);
    });
    await until(
      () => tags(),
      (n) => n >= 1,
      'a first load',
    );
    const before = loads;
    await tags();
    expect(loads).toBe(before);
  });

  it('keeps reads again after one text holding a whole transaction (as pg-boss sends it)', async () => {
    await database.executeSql("BEGIN; update cache_test_notes set body = 'sixth' where id = 'n1'; COMMIT;");
    expect(await bodyOf()('n1')).toBe('sixth');
    // a later write on the same pooled connection is not taken for part of a transaction still open
    await database.db.update(notes).set({ body: 'seventh' }).where(eq(notes.id, 'n1'));
    expect(await bodyOf()('n1')).toBe('seventh');
    let loads = 0;
    const counted = database.cache.memo(['cache_test_notes'], async () => ++loads);
    await until(
      () => counted(),
      (n) => n >= 1,
      'a first load',
    );
    const before = loads;
    await counted();
    expect(loads).toBe(before);
    await database.db.update(notes).set({ body: 'fifth' }).where(eq(notes.id, 'n1')); // as the next test expects it
  });

  it.runIf(process.env.TEST_DATABASE_URL)('sees a write that another process committed (PostgreSQL)', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const name = (await database.executeSql('select current_database() as name')).rows[0].name as string;
    url.pathname = `/${name}`;
    const other = await openDatabase({ databaseUrl: url.toString() });
    try {
      const read = bodyOf();
      database.cache.memo(['cache_test_notes'], async () => undefined); // the table is watched in both processes
      other.cache.memo(['cache_test_notes'], async () => undefined);
      await until(
        () => read('n1'),
        (b) => b === 'fifth',
        'the body before',
      );
      await other.db.update(notes).set({ body: 'from another process' }).where(eq(notes.id, 'n1'));
      await until(
        () => read('n1'),
        (b) => b === 'from another process',
        "the other process's write",
      );
    } finally {
      await other.close();
    }
  });
});
