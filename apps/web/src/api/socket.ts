import { io, type Socket } from 'socket.io-client';
import { useEffect, useState } from 'react';
import { session } from './session';

export const REALTIME_PATH = '/ms-realtime/websockets/';

/** A socket for one project: authenticated by the id token in the query, joined to the project's room. */
export function connectProjectSocket(projectId: string): Socket {
  const socket = io({
    path: REALTIME_PATH,
    query: { Authorization: session.idToken() ?? '' },
    transports: ['websocket', 'polling'],
  });
  // The token may have been refreshed since: send the current one on every reconnect.
  socket.io.on('reconnect_attempt', () => {
    socket.io.opts.query = { Authorization: session.idToken() ?? '' };
  });
  socket.on('connect', () => {
    socket.emit('project:join', projectId, (answer: { ok: boolean; message?: string }) => {
      if (!answer?.ok) console.warn('[realtime] could not join project', answer?.message);
    });
  });
  return socket;
}

/** The current project's socket, or null while signed out / no project. Reconnects when the project or token changes. */
export function useProjectSocket(projectId: string | undefined): Socket | null {
  const [socket, setSocket] = useState<Socket | null>(null);
  useEffect(() => {
    if (!projectId || !session.idToken()) return;
    const s = connectProjectSocket(projectId);
    setSocket(s);
    return () => {
      s.disconnect();
      setSocket(null);
    };
  }, [projectId]);
  return socket;
}
