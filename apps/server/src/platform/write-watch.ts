import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { tablesWritten, type WriteWatch } from './read-cache.js';

/** The channel on which processes sharing one PostgreSQL tell each other which tables they committed to. */
const CHANNEL = 'gantry_writes';
const WATCHED = Symbol('gantry.writeWatch');

const textOf = (q: unknown) => (typeof q === 'string' ? q : ((q as { text?: string } | null)?.text ?? ''));
const ENDS_TX = /^\s*(commit|rollback|end)\b/i;
const BEGINS_TX = /^\s*(begin|start\s+transaction)\b/i;
// one text holding a whole transaction (pg-boss sends 'BEGIN; …; COMMIT;'): it leaves no transaction open
const ENDS_OWN_TX = /;\s*(commit|rollback|end)\s*;?\s*$/i;

/** Reports the writes of a PGlite client (its queries, and its transactions at their end) to `watch`. */
export function watchPglite(client: PGlite, watch: WriteWatch) {
  const around = async <T>(text: string, run: () => Promise<T>) => {
    const tables = tablesWritten(text);
    if (!tables.length) return run();
    watch.writing(tables);
    try {
      return await run();
    } finally {
      watch.wrote(tables);
    }
  };
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((text: string, ...rest: unknown[]) => around(text, () => (query as any)(text, ...rest))) as PGlite['query'];
  client.exec = ((text: string, ...rest: unknown[]) => around(text, () => (exec as any)(text, ...rest))) as PGlite['exec'];
  client.transaction = (async (fn: (tx: any) => Promise<unknown>) => {
    const written = new Set<string>();
    try {
      return await transaction((tx) => {
        const txQuery = tx.query.bind(tx);
        const txExec = tx.exec.bind(tx);
        const note = (text: string, run: () => Promise<any>) => {
          const tables = tablesWritten(text);
          const fresh = tables.filter((t) => !written.has(t));
          // one table at a time, here and at the end: the cascades each brings then balance out
          for (const t of fresh) {
            written.add(t);
            watch.writing([t]);
          }
          return run();
        };
        tx.query = ((text: string, ...rest: unknown[]) => note(text, () => (txQuery as any)(text, ...rest))) as typeof tx.query;
        tx.exec = ((text: string, ...rest: unknown[]) => note(text, () => (txExec as any)(text, ...rest))) as typeof tx.exec;
        return fn(tx);
      });
    } finally {
      for (const t of written) watch.wrote([t]);
    }
  }) as PGlite['transaction'];
}

/** Runs a pg query (promise or callback form) and calls `after` once it has answered, either way. */
function queryThen(query: (...args: unknown[]) => any, args: unknown[], after: () => void) {
  const cb = args.at(-1);
  if (typeof cb === 'function') {
    return query(...args.slice(0, -1), (...answer: unknown[]) => {
      after();
      cb(...answer);
    });
  }
  const result = query(...args);
  Promise.resolve(result).then(after, after);
  return result;
}

/**
 * Reports the writes made through a pg pool to `watch` (a statement outside a transaction when it
 * returns, a transaction's at its commit or rollback), and tells other processes of watched tables
 * committed to; their commits arrive over LISTEN. Answers a stop for the listening connection.
 */
export function watchPool(pool: pg.Pool, connectionString: string, watch: WriteWatch): () => Promise<void> {
  const notify = (tables: string[]) => {
    const shared = tables.filter((t) => watch.watched(t));
    if (shared.length) pool.query('select pg_notify($1, $2)', [CHANNEL, shared.join(',')]).catch(() => watch.setShared(false));
  };
  const watchClient = (client: pg.PoolClient) => {
    if ((client as any)[WATCHED]) return client;
    (client as any)[WATCHED] = true;
    const query = client.query.bind(client) as (...args: unknown[]) => any;
    const pending = new Set<string>();
    let inTransaction = false;
    const committed = (tables: string[], each = false) => {
      if (each) for (const t of tables) watch.wrote([t]);
      else watch.wrote(tables);
      notify(tables);
    };
    (client as any).query = (q: unknown, ...rest: unknown[]) => {
      const text = textOf(q);
      if (BEGINS_TX.test(text)) {
        if (!ENDS_OWN_TX.test(text)) inTransaction = true;
      } else if (ENDS_TX.test(text)) {
        inTransaction = false;
        const tables = [...pending];
        pending.clear();
        return tables.length ? queryThen(query, [q, ...rest], () => committed(tables, true)) : query(q, ...rest);
      }
      const tables = tablesWritten(text).filter((t) => !pending.has(t));
      if (!tables.length) return query(q, ...rest);
      if (!inTransaction) {
        watch.writing(tables);
        return queryThen(query, [q, ...rest], () => committed(tables));
      }
      for (const t of tables) {
        pending.add(t); // one table at a time, as at the commit
        watch.writing([t]);
      }
      return query(q, ...rest);
    };
    return client;
  };
  // pool.query connects (below) and runs on a watched client
  const connect = pool.connect.bind(pool) as (cb?: (err: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) => Promise<pg.PoolClient>;
  // pg's own pool.query connects with a callback: both forms are kept
  (pool as any).connect = (cb?: (err: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) =>
    cb ? connect((err, client, done) => cb(err, client && watchClient(client), done)) : connect().then(watchClient);

  // Other processes' commits: while not listening, nothing read is kept (setShared(false)).
  let stopped = false;
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  watch.setShared(false);
  const listen = async () => {
    const client = new pg.Client({ connectionString });
    listener = client;
    const lost = () => {
      watch.setShared(false);
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.end().catch(() => undefined);
      if (!stopped) retry = setTimeout(() => void listen(), 1000);
    };
    client.on('error', lost);
    client.on('end', () => !stopped && lost());
    client.on('notification', (n) => {
      if (n.channel === CHANNEL && n.payload) watch.changed(n.payload.split(','));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      if (!stopped) watch.setShared(true);
    } catch {
      if (!stopped) lost();
    }
  };
  void listen();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    watch.setShared(false);
    await listener?.end().catch(() => undefined);
  };
}
