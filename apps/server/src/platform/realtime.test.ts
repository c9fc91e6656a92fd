import { describe, it, expect, afterEach } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { io as ioClient, type Socket } from 'socket.io-client';
import { openTestDatabase, until } from '../../test/helpers.js';
import { createRealtime, REALTIME_PATH } from './realtime.js';
import type { IdTokens } from './tokens.js';

const PROJECT = '00000000-0000-4000-8000-000000000001';
const idTokens = { verify: async () => ({ sub: 'user-1' }) } as unknown as IdTokens;
const membership = async () => 'read' as const;

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A Gantry node's realtime on its own pool and HTTP server (the database is shared: events cross nodes as pg_notify). */
async function node(url: string, pool = new pg.Pool({ connectionString: url, max: 4 })) {
  const realtime = createRealtime({ idTokens, membership, pool });
  const server = http.createServer();
  realtime.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  realtime.on('test:join', async ({ socket }, room) => {
    await socket.join(String(room));
    return { ok: true };
  });
  closing.push(() => pool.end());
  closing.push(() => new Promise((resolve) => server.close(resolve)));
  closing.push(() => realtime.close());
  return { realtime, port: (server.address() as AddressInfo).port };
}

/** A worker's realtime (`gantry worker`): on its own pool, serving no one (it has no HTTP server), attached as app.ts attaches it. */
function workerNode(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const realtime = createRealtime({ idTokens, membership, pool });
  realtime.attach();
  closing.push(() => pool.end());
  closing.push(() => realtime.close());
  return { realtime };
}

/** A database of its own on the test server, dropped after the test: the nodes' shared one. */
async function sharedDatabaseUrl() {
  const database = await openTestDatabase();
  closing.push(() => database.drop());
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${(await database.executeSql('select current_database() as name')).rows[0].name}`;
  return url.toString();
}

/** A socket of user-1 on the node at `port` that joined PROJECT, once it hears what `from` (another node) emits. */
async function socketHearing(port: number, from: { realtime: ReturnType<typeof createRealtime> }, rooms: string[] = []) {
  const sock: Socket = ioClient(`http://127.0.0.1:${port}`, {
    path: REALTIME_PATH,
    query: { Authorization: 'Bearer t' },
    transports: ['websocket'],
    reconnection: false,
  });
  closing.push(async () => sock.close());
  let probed = false;
  sock.on('probe', () => (probed = true));
  expect(await sock.emitWithAck('project:join', PROJECT)).toEqual({ ok: true });
  for (const room of rooms) expect(await sock.emitWithAck('test:join', room)).toEqual({ ok: true });
  // the node holding the socket listens once its adapter has its connection
  await until(
    async () => (from.realtime.toProject(PROJECT, 'probe', {}), probed),
    (p) => p,
    'the node holding the socket to listen',
    30_000,
    100,
  );
  return sock;
}

describe('realtime across nodes (PostgreSQL)', () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a socket on another node hears events of one order key in the order they were emitted, a payload over 8 kB too',
    async () => {
      const url = await sharedDatabaseUrl();
      const worker = await node(url);
      // the node holding the socket reads a big payload's attachment slowly: the small event after it arrives meanwhile
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
      pool.query = (async (...args: unknown[]) => {
        if (String(args[0]).includes('SELECT payload FROM socket_io_attachments')) await new Promise((r) => setTimeout(r, 300));
        return query(...args);
      }) as typeof pool.query;
      const api = await node(url, pool);

      const heard: string[] = [];
      const sock = await socketHearing(api.port, worker, ['logs:b:Last']);
      for (const event of ['logs', 'build:update']) sock.on(event, (e: { n: number }) => heard.push(`${event} ${e.n}`));

      const order = { order: 'build:b' };
      const big = 'x'.repeat(20_000);
      worker.realtime.toRoom('logs:b:Last', 'logs', { n: 1, text: big }, order);
      worker.realtime.toRoom('logs:b:Last', 'logs', { n: 2, text: 'last line' }, order);
      worker.realtime.toProject(PROJECT, 'build:update', { n: 3, status: 'SUCCEEDED' }, order);
      await until(
        async () => heard,
        (h) => h.length === 3,
        'the three events',
        10_000,
      );
      expect(heard).toEqual(['logs 1', 'logs 2', 'build:update 3']);
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)("a worker's events (it serves no sockets: no HTTP server) reach a socket on an api node, in order", async () => {
    const url = await sharedDatabaseUrl();
    const worker = workerNode(url);
    const api = await node(url);
    const heard: string[] = [];
    const sock = await socketHearing(api.port, worker, ['logs:b:Build']);
    for (const event of ['logs', 'build:update']) sock.on(event, (e: { n: number }) => heard.push(`${event} ${e.n}`));
    const order = { order: 'build:b' };
    worker.realtime.toProject(PROJECT, 'build:update', { n: 1, status: 'RUNNING' }, order);
    for (let n = 2; n <= 20; n++) worker.realtime.toRoom('logs:b:Build', 'logs', { n, text: `line ${n}` }, order);
    worker.realtime.toProject(PROJECT, 'build:update', { n: 21, status: 'SUCCEEDED' }, order);
    await until(
      async () => heard,
      (h) => h.length === 21,
      "the worker's 21 events",
      10_000,
    );
    expect(heard).toEqual(['build:update 1', ...Array.from({ length: 19 }, (_, i) => `logs ${i + 2}`), 'build:update 21']);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'a node whose listening connection PostgreSQL ends (a restart, a failover, an admin) goes on, and hears the others again',
    async () => {
      const url = await sharedDatabaseUrl();
      const [here, there] = [await node(url), await node(url)];
      const sock = await socketHearing(there.port, here);
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      closing.push(() => admin.end());
      const listening = `select pid from pg_stat_activity where datname = current_database() and query like 'LISTEN "socket.io%'`;
      await until(
        async () => (await admin.query(listening)).rowCount,
        (n) => n === 2,
        'both nodes listening',
      );
      let heard = 0;
      sock.on('again', () => heard++);
      // more times than each node's pool has connections: an ended one is given back, not held
      for (let i = 0; i < 5; i++) {
        // the error the ended connection raises is the node's to handle: unhandled, it ends the process (test/setup.ts fails it)
        await admin.query(`select pg_terminate_backend(pid) from (${listening}) l`);
        heard = 0;
        await until(
          async () => (here.realtime.toProject(PROJECT, 'again', {}), heard),
          (n) => n > 0,
          `the other node heard again after ${i + 1} ends`,
          30_000,
          200,
        );
      }
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    "disconnecting a user on one node ends that user's sockets and streams on the others, and no one else's",
    async () => {
      const url = await sharedDatabaseUrl();
      const [here, there] = [await node(url), await node(url)];
      const sock = await socketHearing(there.port, here);
      const ended: string[] = [];
      there.realtime.onUserDisconnected('user-1', () => ended.push('there: user-1'));
      there.realtime.onUserDisconnected('user-2', () => ended.push('there: user-2'));
      const forgotten = there.realtime.onUserDisconnected('user-1', () => ended.push('there: user-1, forgotten'));
      forgotten();
      here.realtime.onUserDisconnected('user-1', () => ended.push('here: user-1'));
      const disconnected = new Promise<string>((resolve) => {
        sock.on('disconnect', resolve);
        setTimeout(() => resolve('still connected after 10 s'), 10_000).unref();
      });

      here.realtime.disconnectUser('user-1');
      expect(await disconnected).toBe('io server disconnect');
      await until(
        async () => ended,
        (e) => e.length >= 2,
        "the other node's stream",
        10_000,
        50,
      );
      expect(ended).toEqual(['here: user-1', 'there: user-1']);
    },
  );
});
