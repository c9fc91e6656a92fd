// A client of a project's room in a process of its own (room-watcher.ts): tells when each deployment ended, by its own
// clock, and sends the requests it is asked to as the member's browser would (from this process, not the server's).
import { io as ioClient } from 'socket.io-client';

const [url, idToken, projectId] = process.argv.slice(2) as [string, string, string];
const socket = ioClient(url, { path: '/ms-realtime/websockets/', query: { Authorization: idToken }, transports: ['websocket'] });
socket.on('deployment:update', (d: { deploymentId: string; status: string; error: string | null }) => {
  const at = performance.timeOrigin + performance.now();
  if (/(COMPLETE|FAILED)$/.test(d.status)) process.send!({ deploymentId: d.deploymentId, status: d.status, error: d.error, at });
});
socket.once('connect', async () => {
  await socket.emitWithAck('project:join', projectId);
  process.send!({ ready: true });
});
process.on('message', async (m: { post?: string; id: number }) => {
  if (!m.post) return;
  const sent = performance.timeOrigin + performance.now();
  const r = await fetch(url + m.post, { method: 'POST', headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' }, body: '{}' });
  process.send!({ id: m.id, sent, statusCode: r.status, body: await r.json() });
});
process.on('disconnect', () => {
  socket.close();
  process.exit(0);
});
