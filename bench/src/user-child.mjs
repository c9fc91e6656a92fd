// The user's side of a bench comparison, in a small process of its own as a user's shell and browser are:
// it triggers a build over HTTP and hears its end on a websocket, and runs the same commands with bash,
// each timed here. In the bench process (Gantry and its PGlite in it) the client would wait on the
// server's event loop, and a fork of it costs in proportion to its memory (~700 MB), which a user never pays.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { io } from 'socket.io-client';

const ENDED = ['SUCCEEDED', 'FAILED', 'ABORTED'];
let socket;
/** Ends heard per build id (an end may come before the trigger's answer). */
const heard = new Map();
const waiting = new Map();

async function connect({ base, idToken, projectId }) {
  socket = io(base, { path: '/ms-realtime/websockets/', query: { Authorization: idToken }, transports: ['websocket'] });
  await new Promise((resolve) => socket.once('connect', resolve));
  await socket.emitWithAck('project:join', projectId);
  socket.on('build:update', (e) => {
    if (!ENDED.includes(e.status) || heard.has(e.buildId)) return;
    const end = { status: e.status, at: performance.now(), wall: Date.now() };
    heard.set(e.buildId, end);
    waiting.get(e.buildId)?.(end);
  });
}

async function trigger({ url, idToken }) {
  const triggeredAt = Date.now();
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
    body: JSON.stringify({ ref: 'refs/heads/main' }),
  });
  const body = await res.json();
  const answerMs = performance.now() - t0;
  if (!res.ok) throw new Error(`trigger: ${res.status} ${JSON.stringify(body)}`);
  const end = heard.get(body.buildId) ?? (await new Promise((resolve) => waiting.set(body.buildId, resolve)));
  waiting.delete(body.buildId);
  heard.delete(body.buildId);
  return { buildId: body.buildId, status: end.status, ms: end.at - t0, answerMs, triggeredAt, heardAt: end.wall };
}

function bash({ scripts }) {
  const t0 = performance.now();
  for (const script of scripts) spawnSync('bash', ['-c', script], { stdio: 'ignore' });
  return { ms: performance.now() - t0 };
}

/** A provider's API read, as a client waits for it. */
async function get({ url, token }) {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return { ms: performance.now() - t0 };
}

const handlers = { connect, trigger, bash, get };
process.on('message', async ({ id, type, ...args }) => {
  try {
    process.send({ id, ok: true, value: await handlers[type](args) });
  } catch (err) {
    process.send({ id, ok: false, message: String(err?.message ?? err) });
  }
});
process.on('disconnect', () => process.exit(0));
