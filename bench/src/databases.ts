import { findPostgresBin, startPostgres } from '@gantry/test-support';

/** A bench run on PGlite, then on PostgreSQL (BENCH_DATABASE_URL, or a throwaway server when its binaries are installed). */
export async function onEachDatabase<R>(run: (databaseUrl?: string) => Promise<R>): Promise<R[]> {
  const results = [await run()];
  if (process.env.BENCH_DATABASE_URL) results.push(await run(process.env.BENCH_DATABASE_URL));
  else if (findPostgresBin()) {
    const pg = await startPostgres();
    try {
      results.push(await run(pg.url));
    } finally {
      pg.stop();
    }
  }
  return results;
}
