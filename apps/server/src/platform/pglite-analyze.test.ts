import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { until } from '../../test/helpers.js';
import { autoAnalyze } from './pglite-analyze.js';

let client: PGlite;
beforeAll(async () => {
  client = await PGlite.create();
  await client.exec(`create table feed (id serial primary key, user_id int not null, created_at timestamptz not null);
    create index feed_user_created_idx on feed (user_id, created_at);
    create table tiny (id int);`);
});
afterAll(async () => {
  await client?.close();
});

const grow = (rows: number) =>
  client.exec(`insert into feed (user_id, created_at) select 1, now() - (g || ' s')::interval from generate_series(1, ${rows}) g; insert into tiny values (1)`);
const plan = async () =>
  (await client.query<{ 'QUERY PLAN': string }>('explain select * from feed where user_id = 1 order by created_at desc limit 100')).rows
    .map((r) => r['QUERY PLAN'])
    .join('\n');

describe('autoAnalyze (PGlite has no autovacuum)', () => {
  it('analyzes a table never analyzed or grown by more than a tenth, so a newest-first list walks its index', async () => {
    const analyze = autoAnalyze(client);
    await grow(10_000);
    expect(await plan()).toContain('Sort'); // planned from its size alone: every row of the user read and sorted
    expect(await analyze.now()).toEqual(['public.feed']); // the tiny table is left alone
    expect(await plan()).toContain('Index Scan Backward using feed_user_created_idx');
    expect(await plan()).not.toContain('Sort');
    expect(await analyze.now()).toEqual([]);
    await grow(500); // less than a tenth
    expect(await analyze.now()).toEqual([]);
    await grow(5_000);
    expect(await analyze.now()).toEqual(['public.feed']);
    await analyze.stop();
  });

  it('looks at the tables a moment after a write', async () => {
    const analyze = autoAnalyze(client, { settledMs: 10, everyMs: 10 });
    await grow(20_000);
    analyze.wrote();
    await until(
      async () => (await client.query<{ n: number }>(`select count(*)::int as n from pg_class where relname = 'feed' and reltuples >= 35000`)).rows[0]!.n,
      (n) => n === 1,
      'feed analyzed',
      10_000,
      20,
    );
    await analyze.stop();
  });
});
