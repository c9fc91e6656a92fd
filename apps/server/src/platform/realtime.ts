import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import type { FastifyBaseLogger } from 'fastify';
import type { IdTokens } from './tokens.js';
import { bearerFrom } from './tokens.js';
import type { MembershipLookup } from './auth.js';

export const REALTIME_PATH = '/ms-realtime/websockets/';
const projectRoom = (projectId: string) => `project:${projectId}`;

export interface Realtime {
  /** Sends an event to every socket that joined the project's room. */
  toProject(projectId: string, event: string, payload: unknown): void;
  close(): Promise<void>;
}

/** socket.io at /ms-realtime/websockets/, authenticated by the Authorization query value; a room per project. */
export function startRealtime(server: HttpServer, deps: { idTokens: IdTokens; membership: MembershipLookup; log: FastifyBaseLogger }): Realtime {
  const io = new Server(server, { path: REALTIME_PATH, serveClient: false, cors: { origin: false } });
  io.use(async (socket, next) => {
    try {
      const raw = socket.handshake.query.Authorization ?? socket.handshake.query.authorization ?? socket.handshake.auth?.Authorization;
      const token = bearerFrom(Array.isArray(raw) ? raw[0] : (raw as string | undefined));
      if (!token) throw new Error('No authorization token was found');
      const claims = await deps.idTokens.verify(token);
      socket.data.userId = claims.sub;
      next();
    } catch (err) {
      next(Object.assign(new Error('unauthorized'), { data: { message: (err as Error).message } }));
    }
  });
  io.on('connection', (socket) => {
    socket.on('project:join', async (projectId: unknown, ack?: (answer: { ok: boolean; message?: string }) => void) => {
      const id = typeof projectId === 'string' ? projectId : '';
      const permission = id && /^[0-9a-f-]{36}$/i.test(id) ? await deps.membership(id, socket.data.userId) : undefined;
      if (!permission) return ack?.({ ok: false, message: 'Project not found' });
      for (const room of socket.rooms) if (room.startsWith('project:')) await socket.leave(room);
      await socket.join(projectRoom(id));
      ack?.({ ok: true });
    });
  });
  return {
    toProject: (projectId, event, payload) => io.to(projectRoom(projectId)).emit(event, payload),
    close: () => new Promise((resolve) => io.close(() => resolve())),
  };
}
