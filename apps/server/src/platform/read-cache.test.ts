import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { openTestDatabase, until } from '../../test/helpers.js';
import { createReadCache, tablesWritten } from './read-cache.js';
import { openDatabase, type Database } from './db.js';
import { LISTENER_NAME } from './write-watch.js';

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

  it('tells other processes of a write to a table no memo reads when it cascades to one that a memo reads', () => {
    const cache = createReadCache();
    cache.watch.setDependents(new Map([['parents', ['children']]]));
    cache.memo(['children'], async () => 1);
    expect(cache.watch.watched('children')).toBe(true);
    expect(cache.watch.watched('parents')).toBe(true);
    expect(cache.watch.watched('others')).toBe(false);
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

  const databaseUrl = async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${(await database.executeSql('select current_database() as name')).rows[0].name}`;
    return url.toString();
  };
  /** A connection of its own, as another program's (no read cache, nothing told unless it says so). */
  const outside = async <T>(run: (c: pg.Client) => Promise<T>) => {
    const c = new pg.Client({ connectionString: await databaseUrl() });
    await c.connect();
    try {
      return await run(c);
    } finally {
      await c.end();
    }
  };
  const storedBody = () => outside(async (c) => (await c.query("select body from cache_test_notes where id = 'n1'")).rows[0].body as string);
  /** Resolves once `read` is served from memory (a second call loads nothing). */
  const kept = (read: () => Promise<unknown>, loads: () => number, what: string) =>
    until(
      async () => {
        await read();
        const before = loads();
        await read();
        return loads() === before;
      },
      (k) => k,
      what,
    );

  it.runIf(process.env.TEST_DATABASE_URL)('undoes and fails a write whose notification fails, and keeps the reads of both processes (PostgreSQL)', async () => {
    let failing = 0;
    const query = pg.Client.prototype.query;
    // connections fail their next notification when told to (only the other process writes meanwhile)
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: any[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0]?.text ?? '');
      if (failing && text.includes('pg_notify')) {
        failing--;
        return Promise.reject(new Error('notification failed')) as any;
      }
      return (query as any).apply(this, args);
    });
    const other = await openDatabase({ databaseUrl: await databaseUrl() });
    try {
      const body = await storedBody();
      const read = bodyOf();
      database.cache.memo(['cache_test_notes'], async () => undefined); // the table is watched in both processes
      let loads = 0;
      const counted = other.cache.memo(['cache_test_notes'], async () => ++loads);
      await kept(counted, () => loads, "the other process's kept read"); // once it listens
      await kept(
        () => read('n1'),
        () => 0,
        'a read of this process',
      );

      failing = 1;
      // drizzle wraps the error of the query it ran: the notification's is its cause
      const failure = (write: Promise<unknown>) =>
        write.then(
          () => 'no error',
          (err: Error) => (err.cause instanceof Error ? err.cause : err).message,
        );
      expect(await failure(other.db.update(notes).set({ body: 'never told' }).where(eq(notes.id, 'n1')))).toBe('notification failed');
      failing = 1;
      expect(
        await failure(
          other.db.transaction(async (tx) => {
            await tx.update(notes).set({ body: 'never told either' }).where(eq(notes.id, 'n1'));
          }),
        ),
      ).toBe('notification failed');
      expect(await storedBody()).toBe(body);
      expect(await read('n1')).toBe(body);
      // one failed notification does not stop the other process keeping reads
      await counted();
      const before = loads;
      await counted();
      expect(loads).toBe(before);
      // and its next write is told
      await other.db.update(notes).set({ body: 'told' }).where(eq(notes.id, 'n1'));
      await until(
        () => read('n1'),
        (b) => b === 'told',
        "the other process's next write",
      );
    } finally {
      await other.close();
      spy.mockRestore();
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'keeps nothing while its listening connection is gone, and keeps reads again at once when listening again (PostgreSQL)',
    async () => {
      const read = bodyOf();
      let loads = 0;
      const counted = database.cache.memo(['cache_test_notes'], async () => ++loads);
      await kept(counted, () => loads, 'a kept read');
      expect(await read('n1')).toBe(await storedBody());

      const killed = await outside(
        async (c) =>
          (
            await c.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and datname = current_database()', [
              LISTENER_NAME,
            ])
          ).rowCount,
      );
      expect(killed).toBe(1);
      // written behind its back while nobody listens: never told to this process
      await outside((c) => c.query("update cache_test_notes set body = 'behind its back' where id = 'n1'"));
      await until(
        () => read('n1'),
        (b) => b === 'behind its back',
        'the write made while not listening',
      );
      const started = Date.now();
      await kept(counted, () => loads, 'reads kept again');
      expect(Date.now() - started).toBeLessThan(5_000);
      // listening again: another process's write (told in its transaction, as Gantry tells it) is seen
      await outside(async (c) => {
        await c.query('begin');
        await c.query("update cache_test_notes set body = 'after the reconnect' where id = 'n1'");
        await c.query("select pg_notify('gantry_writes', 'cache_test_notes')");
        await c.query('commit');
      });
      await until(
        () => read('n1'),
        (b) => b === 'after the reconnect',
        'the write told after the reconnect',
      );
    },
  );
});
