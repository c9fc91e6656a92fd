import type { PGlite } from '@electric-sql/pglite';

/** How long after a write the tables are looked at, and the least time between two looks. */
const SETTLED_MS = 1_000;
const EVERY_MS = 5_000;

/**
 * Tables that changed size by more than a tenth since their statistics were gathered (or never had
 * any): the pages ANALYZE last saw (`relpages`) against the pages now. Tiny tables are left alone.
 * Each table's size is read once: `pg_relation_size` (a stat of its files, in a data dir) is most of what the look costs.
 */
const STALE_TABLES = `
  select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
   cross join lateral (select pg_relation_size(c.oid) / current_setting('block_size')::int as pages) on_disk
   where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema')
     and on_disk.pages >= 8 and (c.reltuples < 0 or abs(on_disk.pages - c.relpages) > c.relpages / 10)`;

/**
 * PostgreSQL's autovacuum keeps the planner's statistics up to date; PGlite runs none, so a table is
 * planned from its size alone however it grew, and a list such as a user's newest notifications then
 * reads every row of the user and sorts them instead of walking its index (issue 14: lists flat in
 * history). This analyzes the tables whose size changed by more than a tenth since they were last
 * analyzed, a moment after writes (and at start), as autovacuum would.
 */
export function autoAnalyze(client: PGlite, o: { settledMs?: number; everyMs?: number; onError?: (err: unknown) => void } = {}) {
  const settledMs = o.settledMs ?? SETTLED_MS;
  const everyMs = o.everyMs ?? EVERY_MS;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<string[]> | undefined;
  let lastRun = 0;
  let stopped = false;

  async function analyzeStale(): Promise<string[]> {
    const { rows } = await client.query<{ name: string }>(STALE_TABLES);
    for (const { name } of rows) await client.exec(`analyze ${name}`);
    return rows.map((r) => r.name);
  }
  /** Analyzes the stale tables now (or answers the run under way); the names analyzed. */
  const now = () =>
    (running ??= analyzeStale().finally(() => {
      running = undefined;
      lastRun = Date.now();
    }));
  const run = () => {
    timer = undefined;
    if (!stopped) now().catch((err) => o.onError?.(err));
  };
  return {
    now,
    /** A write committed: the tables are looked at a moment later (at most every `everyMs`, however steady the writes). */
    wrote() {
      if (stopped || timer) return;
      timer = setTimeout(run, Math.max(settledMs, lastRun + everyMs - Date.now()));
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
