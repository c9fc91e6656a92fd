import path from 'node:path';
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { getTableName, type Table } from 'drizzle-orm';
import { drizzleParsersOnClient } from './pglite-parsers.js';
import { createReadCache, type ReadCache } from './read-cache.js';
import { watchPglite, watchPool } from './write-watch.js';
import { autoAnalyze } from './pglite-analyze.js';
import { findTemplate, migrationsFolder, seedDataDir, templateBlob, type DbTemplate } from './db-template.js';

// Without a schema: queries go through each module's own tables (the whole list is src/schema.ts, for migrations).
export type Db = NodePgDatabase;
/** A transaction or the database itself: stores accept either so services can group writes. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

/** Runs one SQL text for pg-boss (it sends multi-statement texts without values). */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: any[] }>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The connection pool on PostgreSQL (socket.io's adapter shares it); none on PGlite. */
  pool?: pg.Pool;
  executeSql: ExecuteSql;
  /** Reads kept in memory until a table they read is written (by this process or, on PostgreSQL, another). */
  cache: ReadCache;
  close(): Promise<void>;
}

/** How long opening a connection may take before start-up says the server cannot be reached. */
const CONNECT_TIMEOUT_MS = 5_000;

/** PostgreSQL when a URL is given, otherwise PGlite (embedded PostgreSQL) in the data dir or in memory. */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string | null;
  connectTimeoutMs?: number;
  /** PGlite's starting point when new: the build's template (default), another, or none (null: initdb). */
  template?: DbTemplate | null;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const where = describeServer(opts.databaseUrl);
    await probeConnection(opts.databaseUrl, where, opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS);
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection the server ended (restart, failover, admin) is dropped and replaced on next use;
    // without a listener pg re-throws it as an uncaught error and the whole process goes down.
    pool.on('error', (err) => console.warn(`[gantry] an idle PostgreSQL connection closed: ${err.message}`));
    const cache = createReadCache();
    const stopWatching = watchPool(pool, opts.databaseUrl, cache.watch);
    const db = drizzlePg({ client: pool });
    try {
      await migratePg(db, { migrationsFolder });
    } catch (err) {
      await stopWatching();
      await pool.end().catch(() => undefined);
      throw new Error(
        `Could not apply the database migrations on PostgreSQL at ${where.hostPort} (database ${where.database}, user ${where.user}): ${(err as Error).message}. Check that this user may create schemas and tables there.`,
        { cause: err },
      );
    }
    cache.watch.setDependents(await dependentTables((text) => pool.query(text)));
    return {
      db,
      kind: 'postgres',
      pool,
      executeSql: async (text, values) => pool.query(text, values as any[]),
      cache,
      close: async () => {
        await stopWatching();
        await pool.end();
      },
    };
  }
  let dir: string | undefined;
  let loadDataDir: Blob | undefined;
  // a new database starts from the build's template when there is one (db-template.ts); the migrations below bring it up to date
  if (opts.dataDir) {
    dir = path.join(opts.dataDir, 'pglite');
    assertWritableDir(opts.dataDir, dir);
    seedDataDir(dir, () => (opts.template === undefined ? findTemplate() : opts.template));
  } else if (opts.template !== null) {
    loadDataDir = templateBlob(opts.template ?? findTemplate());
  }
  let opened = PGlite.create(dir ? { dataDir: dir } : loadDataDir ? { loadDataDir } : {});
  if (loadDataDir) opened = opened.catch(() => PGlite.create({})); // a damaged template: made from scratch
  const client = await opened.catch((err: Error) => {
    throw new Error(
      `The embedded database in ${dir ?? 'memory'} could not be opened: ${err.message}.${dir ? ' Another Gantry may be using this data dir, or its files are damaged; set GANTRY_DATA_DIR to another directory to start afresh.' : ''}`,
      { cause: err },
    );
  });
  drizzleParsersOnClient(client);
  const cache = createReadCache();
  // no autovacuum in PGlite: the planner's statistics are gathered a moment after writes (pglite-analyze.ts)
  const analyze = autoAnalyze(client, { onError: (err) => console.warn(`[gantry] analyzing the embedded database failed: ${(err as Error).message}`) });
  watchPglite(client, {
    ...cache.watch,
    wrote(tables) {
      cache.watch.wrote(tables);
      analyze.wrote();
    },
  });
  const db = drizzlePglite({ client }) as unknown as Db;
  await migratePglite(drizzlePglite({ client }), { migrationsFolder });
  cache.watch.setDependents(await dependentTables((text) => client.query(text)));
  analyze.wrote(); // a data dir of an earlier version may never have been analyzed
  return {
    db,
    kind: 'pglite',
    executeSql: async (text, values) => {
      if (values && values.length) return client.query(text, values);
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    cache,
    close: async () => {
      await analyze.stop();
      await client.close();
    },
  };
}

/** Table names, as a store tells which tables a kept answer built on its reads depends on. */
export const tableNames = (tables: Table[]) => tables.map((t) => getTableName(t));

/** A store's memo over its tables: the database's read cache, or (a store made without one) no caching. */
export const memoOf =
  (cache?: ReadCache) =>
  <A extends unknown[], V>(tables: Table[], load: (...args: A) => Promise<V>, opts?: { max?: number }): ((...args: A) => Promise<V>) =>
    cache
      ? cache.memo(
          tables.map((t) => getTableName(t)),
          load,
          opts,
        )
      : load;

/** Per table, the tables whose rows a write to it changes through foreign-key actions (the read cache's view of cascades). */
async function dependentTables(query: (text: string) => Promise<{ rows: any[] }>) {
  const { rows } = await query(
    `select c.confrelid::regclass::text as parent, c.conrelid::regclass::text as child from pg_constraint c
      where c.contype = 'f' and (c.confdeltype in ('c', 'n', 'd') or c.confupdtype in ('c', 'n', 'd'))`,
  );
  const map = new Map<string, string[]>();
  const bare = (name: string) => name.replace(/^.*\./, '').replace(/"/g, '');
  for (const r of rows as { parent: string; child: string }[]) map.set(bare(r.parent), [...(map.get(bare(r.parent)) ?? []), bare(r.child)]);
  return map;
}

type PgError = Error & { code?: string };

/** Host, port, database and user of a connection URL, for messages (never the password). */
function describeServer(url: string) {
  try {
    const u = new URL(url);
    const host = u.hostname || process.env.PGHOST || 'localhost';
    return {
      hostPort: `${host}:${u.port || '5432'}`,
      database: decodeURIComponent(u.pathname.slice(1)) || '(default)',
      user: decodeURIComponent(u.username) || '(default)',
    };
  } catch {
    return { hostPort: '(DATABASE_URL is not a valid URL)', database: '?', user: '?' };
  }
}

/**
 * One connection with a short timeout before the pool is made: start-up says at once what is wrong
 * (the pool itself keeps no connect timeout, so requests under load wait for a free connection).
 */
async function probeConnection(url: string, where: ReturnType<typeof describeServer>, timeoutMs: number) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined); // a failure is reported by connect() below
  try {
    await client.connect();
  } catch (err) {
    throw new Error(connectFailure(err as PgError, where, timeoutMs), { cause: err });
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** What went wrong connecting, and what to do about it, in one sentence a person can act on. */
function connectFailure(err: PgError, where: ReturnType<typeof describeServer>, timeoutMs: number) {
  const code = err.code ?? '';
  if (code === '28P01' || code === '28000') {
    return `PostgreSQL at ${where.hostPort} refused user ${where.user} (${err.message}). Check the user and password in DATABASE_URL, and pg_hba.conf on the server.`;
  }
  if (code === '3D000') return `There is no database ${where.database} on PostgreSQL at ${where.hostPort}. Create it or fix the database name in DATABASE_URL.`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `Cannot resolve the PostgreSQL host in DATABASE_URL (${where.hostPort}, ${code}). Check the host name.`;
  if (/timeout/i.test(err.message) || code === 'ETIMEDOUT') {
    return `No answer from PostgreSQL at ${where.hostPort} within ${timeoutMs / 1000} s. Check DATABASE_URL, that the server is running and that no firewall is in the way.`;
  }
  if (/terminated unexpectedly/i.test(err.message)) {
    return `Something at ${where.hostPort} closed the connection before PostgreSQL answered. Check the host, port and sslmode in DATABASE_URL, and that a PostgreSQL server listens there.`;
  }
  if (code.startsWith('E')) return `Cannot reach PostgreSQL at ${where.hostPort} (${code}). Check DATABASE_URL and that the server is running.`;
  return `Cannot connect to PostgreSQL at ${where.hostPort}: ${err.message}${code ? ` (${code})` : ''}. Check DATABASE_URL.`;
}

/**
 * The data dir must take files before PGlite starts: it would otherwise fail with a message that names
 * neither the directory nor the cause. Creating a file is the real test (permission bits do not stop
 * root; a read-only mount or a path below a regular file do).
 */
export function assertWritableDir(dataDir: string, dir: string) {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'unknown';
  try {
    fs.mkdirSync(dir, { recursive: true });
    const probe = path.join(dir, `.write-test-${process.pid}`);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new Error(
      `The data dir ${path.resolve(dataDir)} is not writable by this user (uid ${uid}; ${code} at ${dir}). Fix its permissions or set GANTRY_DATA_DIR.`,
      { cause: err },
    );
  }
}
