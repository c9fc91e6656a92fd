import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { tablesWritten, type WriteWatch } from './read-cache.js';

/** The channel on which processes sharing one PostgreSQL tell each other which tables they committed to. */
const CHANNEL = 'gantry_writes';
const WATCHED = Symbol('gantry.writeWatch');
/** The listening connection's application_name (pg_stat_activity tells it apart). */
export const LISTENER_NAME = 'gantry-write-watch';
const RECONNECT_FIRST_MS = 50;
const RECONNECT_MAX_MS = 2_000;

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

/** Runs `run` for a pg query's caller: its promise, or its callback when the call ended with one. */
function answer(args: unknown[], run: (args: unknown[]) => Promise<unknown>) {
  const cb = args.at(-1);
  if (typeof cb !== 'function') return run(args);
  run(args.slice(0, -1)).then(
    (result) => cb(undefined, result),
    (err) => cb(err),
  );
  return undefined;
}

/**
 * Reports the writes made through a pg pool to `watch` (a statement outside a transaction when it
 * returns, a transaction's at its commit or rollback), and tells other processes of watched tables
 * committed to; their commits arrive over LISTEN. Answers a stop for the listening connection.
 *
 * The notification is sent in the writing transaction, just before its commit (a statement outside
 * one is made one for it): PostgreSQL delivers it with the commit or not at all. A notification that
 * fails undoes the write and fails it, so no other process keeps a read the write made stale, and the
 * kept reads of this one stay usable.
 */
export function watchPool(pool: pg.Pool, connectionString: string, watch: WriteWatch): () => Promise<void> {
  const shared = (tables: Iterable<string>) => [...tables].filter((t) => watch.watched(t));
  const notifyText = 'select pg_notify($1, $2)';
  const watchClient = (client: pg.PoolClient) => {
    if ((client as any)[WATCHED]) return client;
    (client as any)[WATCHED] = true;
    const query = client.query.bind(client) as (...args: unknown[]) => any;
    const pending = new Set<string>();
    let inTransaction = false;
    const notify = (tables: string[]) => query(notifyText, [CHANNEL, tables.join(',')]);
    /** The transaction's commit, its watched tables told in it first; a failed notification rolls it back and fails the commit. */
    const commitTelling = async (tables: string[], args: unknown[]) => {
      try {
        await notify(tables);
      } catch (err) {
        await query('rollback').catch(() => undefined);
        throw err;
      }
      return query(...args);
    };
    /** One statement outside a transaction, made one so that its notification goes with its commit. */
    const runTelling = async (tables: string[], args: unknown[]) => {
      await query('begin');
      try {
        const result = await query(...args);
        await notify(tables);
        await query('commit');
        return result;
      } catch (err) {
        await query('rollback').catch(() => undefined);
        throw err;
      }
    };
    (client as any).query = (q: unknown, ...rest: unknown[]) => {
      const text = textOf(q);
      const args = [q, ...rest];
      if (BEGINS_TX.test(text)) {
        if (!ENDS_OWN_TX.test(text)) inTransaction = true;
      } else if (ENDS_TX.test(text)) {
        inTransaction = false;
        const tables = [...pending];
        pending.clear();
        if (!tables.length) return query(...args);
        const told = /^\s*rollback\b/i.test(text) ? [] : shared(tables);
        // one table at a time, as they were noted
        const done = () => tables.forEach((t) => watch.wrote([t]));
        return answer(args, (a) => {
          const run = told.length ? commitTelling(told, a) : Promise.resolve(query(...a));
          return run.finally(done);
        });
      }
      const tables = tablesWritten(text).filter((t) => !pending.has(t));
      if (!tables.length) return query(...args);
      if (!inTransaction) {
        watch.writing(tables);
        const told = shared(tables);
        const done = () => watch.wrote(tables);
        // a text that is a whole transaction (pg-boss's, on its own tables) cannot be wrapped: told after its commit
        if (told.length && ENDS_OWN_TX.test(text))
          return answer(args, (a) =>
            Promise.resolve(query(...a))
              .then((result) => notify(told).then(() => result))
              .finally(done),
          );
        return answer(args, (a) => (told.length ? runTelling(told, a) : Promise.resolve(query(...a))).finally(done));
      }
      for (const t of tables) {
        pending.add(t); // one table at a time, as at the commit
        watch.writing([t]);
      }
      return query(...args);
    };
    return client;
  };
  // pool.query connects (below) and runs on a watched client
  const connect = pool.connect.bind(pool) as (cb?: (err: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) => Promise<pg.PoolClient>;
  // pg's own pool.query connects with a callback: both forms are kept
  (pool as any).connect = (cb?: (err: Error | undefined, client?: pg.PoolClient, done?: unknown) => void) =>
    cb ? connect((err, client, done) => cb(err, client && watchClient(client), done)) : connect().then(watchClient);

  // Other processes' commits: while not listening, nothing read is kept (setShared(false)); once listening again,
  // reads are kept afresh (setShared drops every read kept before).
  let stopped = false;
  let listener: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0; // in a row: the first reconnect is at once, then ever later up to a few seconds
  watch.setShared(false);
  const listen = async () => {
    const client = new pg.Client({ connectionString, application_name: LISTENER_NAME });
    listener = client;
    let gone = false;
    const lost = () => {
      if (gone) return;
      gone = true;
      watch.setShared(false);
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.end().catch(() => undefined);
      const delay = failures ? Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** (failures - 1)) : 0;
      failures++;
      if (!stopped) retry = setTimeout(() => void listen(), delay);
    };
    client.on('error', lost);
    client.on('end', () => !stopped && lost());
    client.on('notification', (n) => {
      if (n.channel === CHANNEL && n.payload) watch.changed(n.payload.split(','));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      if (!stopped && !gone) {
        failures = 0;
        watch.setShared(true);
      }
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
