import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.js';

export type Db = NodePgDatabase<typeof schema>;
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
  close(): Promise<void>;
}

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

/** PostgreSQL when a URL is given, otherwise PGlite (embedded PostgreSQL) in the data dir or in memory. */
export async function openDatabase(opts: { databaseUrl?: string; dataDir?: string | null }): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    // An idle connection the server ended (restart, failover, admin) is dropped and replaced on next use;
    // without a listener pg re-throws it as an uncaught error and the whole process goes down.
    pool.on('error', (err) => console.warn(`[gantry] an idle PostgreSQL connection closed: ${err.message}`));
    const db = drizzlePg({ client: pool, schema });
    await migratePg(db, { migrationsFolder });
    return {
      db,
      kind: 'postgres',
      pool,
      executeSql: async (text, values) => pool.query(text, values as any[]),
      close: () => pool.end(),
    };
  }
  let dir: string | undefined;
  if (opts.dataDir) {
    dir = path.join(opts.dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
  }
  const client = await PGlite.create(dir ? { dataDir: dir } : {});
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
  return {
    db,
    kind: 'pglite',
    executeSql: async (text, values) => {
      if (values && values.length) return client.query(text, values);
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    close: () => client.close(),
  };
}
