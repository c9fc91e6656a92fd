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

describe('realtime across nodes (PostgreSQL)', () => {
  it.runIf(process.env.TEST_DATABASE_URL)(
    'a socket on another node hears events of one order key in the order they were emitted, a payload over 8 kB too',
    async () => {
      const database = await openTestDatabase();
      closing.push(() => database.drop());
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${(await database.executeSql('select current_database() as name')).rows[0].name}`;
      const worker = await node(url.toString());
      // the node holding the socket reads a big payload's attachment slowly: the small event after it arrives meanwhile
      const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
      const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
      pool.query = (async (...args: unknown[]) => {
        if (String(args[0]).includes('SELECT payload FROM socket_io_attachments')) await new Promise((r) => setTimeout(r, 300));
        return query(...args);
      }) as typeof pool.query;
      const api = await node(url.toString(), pool);

      const sock: Socket = ioClient(`http://127.0.0.1:${api.port}`, {
        path: REALTIME_PATH,
        query: { Authorization: 'Bearer t' },
        transports: ['websocket'],
        reconnection: false,
      });
      closing.push(async () => sock.close());
      const heard: string[] = [];
      let probed = false;
      sock.on('probe', () => (probed = true));
      for (const event of ['logs', 'build:update']) sock.on(event, (e: { n: number }) => heard.push(`${event} ${e.n}`));
      expect(await sock.emitWithAck('project:join', PROJECT)).toEqual({ ok: true });
      expect(await sock.emitWithAck('test:join', 'logs:b:Last')).toEqual({ ok: true });
      // the API node listens once its adapter has its connection
      await until(
        async () => (worker.realtime.toProject(PROJECT, 'probe', {}), probed),
        (p) => p,
        'the API node to listen',
        30_000,
        100,
      );

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
});
