import type { Server as HttpServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { createAdapter, type PostgresAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import type { IdTokens } from './tokens.js';
import { bearerFrom } from './tokens.js';
import type { MembershipLookup } from './auth.js';

export const REALTIME_PATH = '/ms-realtime/websockets/';
export const projectRoom = (projectId: string) => `project:${projectId}`;
/** Every socket of a user, whatever it follows: ended together when the user's session or a membership ends. */
const userRoom = (userId: string) => `user:${userId}`;
/** The nodes' message that a user is disconnected (Realtime.disconnectUser): each ends the sockets and streams it holds. */
const USER_DISCONNECTED = 'gantry:user-disconnected';

/**
 * Resolves after a turn of the event loop. Awaited after emitting events and before slower work (a run's
 * notifications): a socket sends the next frame of a write only once the previous one's callback ran, and
 * PGlite's queries run on this thread without yielding, so the events just emitted leave first.
 */
export const eventsLeave = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What orders a broadcast after others than those to its rooms (Realtime's toRoom). */
export type EmitOrder = { order?: string };

type Ack = (answer: { ok: boolean; message?: string }) => void;
/** A module's answer to a client event: it may join the socket to rooms and emit a backlog. */
export type RealtimeHandler = (ctx: { userId: string; socket: Socket }, payload: unknown) => Promise<{ ok: boolean; message?: string }>;

export interface Realtime {
  on(event: string, handler: RealtimeHandler): void;
  /**
   * `o.order`: broadcasts given the same order key reach each socket in the order they were emitted, whatever
   * their rooms (as broadcasts to the same rooms do): a build's last log lines (its log's room) before its end
   * (its project's room), for a client that stops listening to the log once it hears the end.
   */
  toRoom(room: string, event: string, payload: unknown, o?: EmitOrder): void;
  toProject(projectId: string, event: string, payload: unknown, o?: EmitOrder): void;
  /**
   * Disconnects the user's sockets and ends their streams (`onUserDisconnected`), on every node: a socket is
   * authenticated once, at its handshake, and keeps the rooms it joined (a project's events, a build's or deployment's
   * log) however long it stays open, and a stream (a pod's log followed) is checked once, when it starts, so a member
   * removed from a project, or a user whose tokens a log-out or a new password ended, would go on hearing them.
   * A client connects again with the token it holds now, which may join only what it still allows.
   */
  disconnectUser(userId: string): void;
  /** Calls `end` when the user is disconnected (on this node or another); returns what stops listening. */
  onUserDisconnected(userId: string, end: () => void): () => void;
  /**
   * Starts socket.io: on `server` for a process that serves clients; without one in a worker (`gantry worker`), which
   * holds no socket but whose runs' events (a build's log lines and statuses, a deployment's) reach the clients of
   * the api nodes through the adapter.
   */
  attach(server?: HttpServer): void;
  close(): Promise<void>;
}

/**
 * socket.io at /ms-realtime/websockets/, authenticated by the Authorization query value.
 * Built before the HTTP server listens so modules can register handlers and emit at any time.
 */
/**
 * The pool as the PostgreSQL adapter sees it. The adapter takes its LISTEN connection in the
 * background after it is created; closed before that finishes, it keeps the connection for good and
 * the pool never ends (a server stopped right after its start hung). Connections it holds are
 * released at close, and once closed it gets none.
 */
function adapterPool(pool: pg.Pool) {
  const held = new Set<pg.PoolClient>();
  let closed = false;
  return {
    facade: {
      query: pool.query.bind(pool),
      async connect() {
        if (closed) return new Promise<never>(() => undefined); // the closed adapter waits forever, holding nothing
        const client = await pool.connect();
        if (closed) {
          client.release();
          return new Promise<never>(() => undefined);
        }
        held.add(client);
        // a checked-out client has no error listener of the pool's: the LISTEN connection ended by the server (a restart,
        // a failover, an admin) would raise an uncaught error and end the process; its 'end' follows, on which the adapter
        // connects again
        const onError = () => undefined;
        client.on('error', onError);
        // and gives it back to the pool as broken: kept, each reconnection would hold one connection more until none is left
        client.once('end', () => held.has(client) && client.release(true));
        const release = client.release.bind(client);
        const on = client.on;
        client.release = (err?: Error | boolean) => {
          held.delete(client);
          client.off('error', onError);
          client.on = on;
          return release(err);
        };
        // the connection the adapter listens on: its notifications are handled one after another, in the order they
        // came (the adapter reads a payload over 8 kB from its attachment first, and the next, smaller event would
        // reach the sockets before it: a build's end before its last log lines)
        let handled: Promise<unknown> = Promise.resolve();
        client.on = function (this: pg.PoolClient, event: Parameters<typeof on>[0], listener: (...args: unknown[]) => unknown) {
          if (event !== 'notification') return on.call(this, event, listener);
          return on.call(this, event, (...args: unknown[]) => {
            handled = handled.then(() => listener(...args)).catch(() => undefined);
          });
        } as typeof client.on;
        return client;
      },
    } as unknown as pg.Pool,
    close() {
      closed = true;
      for (const client of [...held]) client.release();
    },
  };
}

/**
 * The PostgreSQL adapter hands a broadcast to this process's own sockets too only once its pg_notify
 * has returned, and each pg_notify takes whichever pooled connection is free (a payload over 8 kB is
 * first inserted as an attachment: two round trips): two events emitted one after the other could reach a
 * socket the other way round (a step's RUNNING before the previous step's SUCCEEDED, a client left showing
 * a stale status; a build's end before its last log lines). Broadcasts to the same rooms, and broadcasts of
 * the same order key (`orderOf`, read as the broadcast is made), go out one after another, in the order they
 * were emitted, here and, each notify having returned before the next is sent, on the other nodes.
 */
function inEmitOrder(adapterOf: (nsp: unknown) => PostgresAdapter, orderOf: () => string | undefined) {
  return function orderedAdapter(nsp: unknown) {
    const adapter = adapterOf(nsp);
    const broadcast = adapter.broadcast.bind(adapter);
    // the last broadcast of each set of rooms and of each order key
    const tails = { rooms: new Map<string, Promise<void>>(), order: new Map<string, Promise<void>>() };
    adapter.broadcast = (packet, opts) => {
      const order = orderOf();
      const after: [Map<string, Promise<void>>, string][] = [[tails.rooms, [...opts.rooms].sort().join('\n')]];
      if (order !== undefined) after.push([tails.order, order]);
      const before = after.map(([map, key]) => map.get(key)).filter((p) => p !== undefined);
      const sent = (before.length > 1 ? Promise.all(before) : (before[0] ?? Promise.resolve())).then(() => broadcast(packet, opts));
      // the next one waits for this one however it ends (the adapter catches its own publish errors)
      const settled = sent.catch(() => undefined);
      for (const [map, key] of after) {
        map.set(key, settled);
        void settled.then(() => {
          if (map.get(key) === settled) map.delete(key);
        });
      }
      return sent;
    };
    return adapter;
  };
}

export function createRealtime(deps: { idTokens: IdTokens; membership: MembershipLookup; pool?: pg.Pool }): Realtime {
  let io: Server | null = null;
  let detached = false;
  const adapter = deps.pool ? adapterPool(deps.pool) : null;
  const handlers = new Map<string, RealtimeHandler>();
  /** What ends each user's streams held by this node. */
  const streams = new Map<string, Set<() => void>>();
  const disconnectHere = (userId: string) => {
    io?.local.in(userRoom(userId)).disconnectSockets(true);
    for (const end of [...(streams.get(userId) ?? [])]) end();
  };

  handlers.set('project:join', async ({ userId, socket }, projectId) => {
    const id = typeof projectId === 'string' ? projectId : '';
    const permission = /^[0-9a-f-]{36}$/i.test(id) ? await deps.membership(id, userId) : undefined;
    if (!permission) return { ok: false, message: 'Project not found' };
    for (const room of socket.rooms) if (room.startsWith('project:')) await socket.leave(room);
    await socket.join(projectRoom(id));
    return { ok: true };
  });

  // the order key of the broadcast being made: socket.io hands an emit to the adapter before emit returns
  let ordering: string | undefined;
  const emit = (room: string, event: string, payload: unknown, o?: EmitOrder) => {
    ordering = o?.order;
    try {
      io?.to(room).emit(event, payload);
    } finally {
      ordering = undefined;
    }
  };

  return {
    on: (event, handler) => void handlers.set(event, handler),
    toRoom: emit,
    toProject: (projectId, event, payload, o) => emit(projectRoom(projectId), event, payload, o),
    disconnectUser(userId) {
      disconnectHere(userId);
      // the other nodes hear it through the adapter (pg_notify); without one, this process is the only node
      if (adapter) io?.serverSideEmit(USER_DISCONNECTED, userId);
    },
    onUserDisconnected(userId, end) {
      const ends = streams.get(userId) ?? new Set();
      streams.set(userId, ends.add(end));
      return () => {
        ends.delete(end);
        if (ends.size === 0 && streams.get(userId) === ends) streams.delete(userId);
      };
    },
    attach(server) {
      const options = { path: REALTIME_PATH, serveClient: false, cors: { origin: false as const } };
      detached = !server;
      io = server ? new Server(server, options) : new Server(options);
      // On PostgreSQL, events cross processes (a worker's build logs reach the API node holding the socket).
      if (adapter) io.adapter(inEmitOrder(createAdapter(adapter.facade, { tableName: 'socket_io_attachments' }), () => ordering));
      io.on(USER_DISCONNECTED, (userId: unknown) => typeof userId === 'string' && disconnectHere(userId));
      io.use(async (socket, next) => {
        try {
          const raw = socket.handshake.query.Authorization ?? socket.handshake.query.authorization ?? socket.handshake.auth?.Authorization;
          const token = bearerFrom(Array.isArray(raw) ? raw[0] : (raw as string | undefined));
          if (!token) throw new Error('No authorization token was found');
          socket.data.userId = (await deps.idTokens.verify(token)).sub;
          next();
        } catch (err) {
          next(Object.assign(new Error('unauthorized'), { data: { message: (err as Error).message } }));
        }
      });
      io.on('connection', (socket) => {
        void socket.join(userRoom(socket.data.userId));
        for (const [event, handler] of handlers) {
          socket.on(event, async (payload: unknown, ack?: Ack) => {
            try {
              ack?.(await handler({ userId: socket.data.userId, socket }, payload));
            } catch (err) {
              ack?.({ ok: false, message: (err as Error).message });
            }
          });
        }
      });
    },
    close: () =>
      new Promise((resolve) => {
        const closing = io;
        io = null; // a run's late log line after the stop is dropped, not sent through a closed adapter
        const done = () => {
          adapter?.close();
          resolve();
        };
        if (!closing) done();
        // a worker's (never attached to a server) has no engine for socket.io's close to end: only its adapter
        else if (detached) void Promise.resolve(closing.of('/').adapter.close()).finally(done);
        else closing.close(() => done());
      }),
  };
}
