import type { Socket } from 'socket.io-client';
import { useEffect } from 'react';
import { REALTIME_PATH, type ClientToServerEvents, type ServerToClientEvents } from '@gantry/contracts';
import { session } from './session';

export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type ServerEvent = keyof ServerToClientEvents;

/**
 * The session's one socket (server: platform/realtime.ts): opened on first use while signed in,
 * closed on logout. What listens to it registers here, not on the socket, so a socket opened
 * after another login serves the same listeners.
 */
let socket: RealtimeSocket | null = null;
/** The id token the socket's current connection was opened with. */
let sentToken: string | null = null;
let projectId: string | null = null;
let stopWatchingSession: (() => void) | null = null;
/** The socket.io client is loaded on first use (after login), not with the first page. */
let opening: Promise<void> | null = null;

const listeners: { [E in ServerEvent]: Set<ServerToClientEvents[E]> } = {
  'build:update': new Set(),
  'step:update': new Set(),
  'deployment:update': new Set(),
  'stage:update': new Set(),
  'plan:update': new Set(),
  'service:update': new Set(),
  notification: new Set(),
  logs: new Set(),
};
/** Run on every (re)connect: the server forgets a socket's rooms when it drops. */
const onConnect = new Set<(s: RealtimeSocket) => void>();
/** Told when a connection attempt fails (server unreachable or handshake refused). */
const onUnreachable = new Set<() => void>();

function authQuery() {
  sentToken = session.idToken();
  return { Authorization: sentToken ?? '' };
}

function joinProject(s: RealtimeSocket) {
  if (!projectId) return;
  s.emit('project:join', projectId, (answer) => {
    if (!answer?.ok) console.warn('[realtime] could not join project', answer?.message);
  });
}

function open(io: typeof import('socket.io-client').io): RealtimeSocket {
  const s: RealtimeSocket = io({ path: REALTIME_PATH, query: authQuery(), transports: ['websocket', 'polling'] });
  // The token may have been refreshed since the last handshake: each reconnection sends the current one.
  s.io.on('reconnect_attempt', () => {
    s.io.opts.query = authQuery();
  });
  s.on('connect', () => {
    joinProject(s);
    onConnect.forEach((run) => run(s));
  });
  s.on('connect_error', () => onUnreachable.forEach((tell) => tell()));
  // The server ends a user's sockets when a membership or their tokens end (removed from a project, a log-out or a new
  // password elsewhere); socket.io does not reconnect after that by itself: connect again with the token held now.
  s.on('disconnect', (reason) => {
    if (reason !== 'io server disconnect' || !session.isLoggedIn()) return;
    s.io.opts.query = authQuery();
    s.connect();
  });
  s.on('build:update', (event) => listeners['build:update'].forEach((listener) => listener(event)));
  s.on('step:update', (event) => listeners['step:update'].forEach((listener) => listener(event)));
  s.on('deployment:update', (event) => listeners['deployment:update'].forEach((listener) => listener(event)));
  s.on('stage:update', (event) => listeners['stage:update'].forEach((listener) => listener(event)));
  s.on('plan:update', (event) => listeners['plan:update'].forEach((listener) => listener(event)));
  s.on('service:update', (event) => listeners['service:update'].forEach((listener) => listener(event)));
  s.on('notification', (event) => listeners.notification.forEach((listener) => listener(event)));
  s.on('logs', (chunk) => listeners.logs.forEach((listener) => listener(chunk)));
  stopWatchingSession = session.subscribe(() => {
    if (!session.isLoggedIn()) return closeRealtime();
    // A handshake the server refused (an expired token) is not retried by socket.io: retry once the session holds a new token.
    if (!s.active && session.idToken() !== sentToken) {
      s.disconnect();
      s.io.opts.query = authQuery();
      s.connect();
    }
  });
  return s;
}

/** The socket once open (opened on first use, the client loaded then); none while signed out. */
function ensureSocket(): RealtimeSocket | null {
  if (!socket && !opening && session.isLoggedIn()) {
    opening = import('socket.io-client')
      .then(({ io }) => {
        if (!socket && session.isLoggedIn()) socket = open(io);
      })
      .catch(() => onUnreachable.forEach((tell) => tell()))
      .finally(() => {
        opening = null;
      });
  }
  return socket;
}

/** Closes the socket (logout); the next use after a login opens a new one. */
export function closeRealtime() {
  stopWatchingSession?.();
  stopWatchingSession = null;
  socket?.disconnect();
  socket = null;
  projectId = null;
}

/** Listens to a server event; returns the way to stop. */
export function onRealtime<E extends ServerEvent>(event: E, listener: ServerToClientEvents[E]): () => void {
  listeners[event].add(listener);
  ensureSocket();
  return () => {
    listeners[event].delete(listener);
  };
}

/** Runs `run` now if connected and again on every reconnect; returns the way to stop. */
export function whileConnected(run: (s: RealtimeSocket) => void): () => void {
  onConnect.add(run);
  const s = ensureSocket();
  if (s?.connected) run(s);
  return () => {
    onConnect.delete(run);
  };
}

/** Tells `tell` of each failed connection attempt; returns the way to stop. */
export function onRealtimeUnreachable(tell: () => void): () => void {
  onUnreachable.add(tell);
  return () => {
    onUnreachable.delete(tell);
  };
}

/** The socket while connected, for a last message (an unsubscribe). */
export const connectedSocket = (): RealtimeSocket | null => (socket?.connected ? socket : null);

/** Keeps the socket in the current project's room (`build:update`, `step:update`, `deployment:update`, `stage:update`, `notification`…), rejoined on every reconnect. */
export function useRealtimeProject(current: string | undefined) {
  useEffect(() => {
    if (!current || current === projectId) return;
    projectId = current;
    const s = ensureSocket();
    if (s?.connected) joinProject(s);
  }, [current]);
}
