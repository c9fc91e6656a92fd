// The launcher process (launcher.ts): spawns commands for the server and relays their output over IPC.
// Plain JavaScript so it starts with bare `node`, in dev (tsx) and from the precompiled build alike.
import { spawn } from 'node:child_process';

process.on('message', (msg) => {
  if (msg.type !== 'spawn') return;
  const { id, command, args, cwd, env, infoFd } = msg;
  let child;
  try {
    child = spawn(command, args, { cwd, env, detached: true, stdio: infoFd ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    process.send({ type: 'error', id, message: err.message, code: err.code });
    return;
  }
  process.send({ type: 'spawned', id, pid: child.pid ?? null });
  const fds = infoFd ? [1, 2, 3] : [1, 2];
  for (const fd of fds) child.stdio[fd].on('data', (chunk) => process.send({ type: 'data', id, fd, data: chunk.toString('base64') }));
  child.once('error', (err) => process.send({ type: 'error', id, message: err.message, code: err.code }));
  child.once('exit', (code, signal) => process.send({ type: 'exit', id, code, signal }));
  child.once('close', (code, signal) => process.send({ type: 'close', id, code, signal }));
});

// the server is gone: so is every box (bwrap's --die-with-parent names this process), as when the server spawned them itself
process.on('disconnect', () => process.exit(0));
