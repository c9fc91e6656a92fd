// The launcher process (launcher.ts): spawns commands for the server and relays their output over IPC.
// Plain JavaScript so it starts with bare `node`, in dev (tsx) and from the precompiled build alike.
import { spawn } from 'node:child_process';

const stdins = new Map();

process.on('message', (msg) => {
  if (msg.type === 'stdin') return void stdins.get(msg.id)?.write(Buffer.from(msg.data, 'base64'));
  if (msg.type === 'stdin-end') return void stdins.get(msg.id)?.end();
  if (msg.type !== 'spawn') return;
  const { id, command, args, cwd, env, infoFd, stdin } = msg;
  let child;
  try {
    const input = stdin ? 'pipe' : 'ignore';
    child = spawn(command, args, { cwd, env, detached: true, stdio: infoFd ? [input, 'pipe', 'pipe', 'pipe'] : [input, 'pipe', 'pipe'] });
  } catch (err) {
    process.send({ type: 'error', id, message: err.message, code: err.code });
    return;
  }
  process.send({ type: 'spawned', id, pid: child.pid ?? null });
  if (stdin) {
    child.stdin.on('error', () => undefined); // the process ended without reading it all
    stdins.set(id, child.stdin);
  }
  const fds = infoFd ? [1, 2, 3] : [1, 2];
  for (const fd of fds) child.stdio[fd].on('data', (chunk) => process.send({ type: 'data', id, fd, data: chunk.toString('base64') }));
  child.once('error', (err) => process.send({ type: 'error', id, message: err.message, code: err.code }));
  child.once('exit', (code, signal) => process.send({ type: 'exit', id, code, signal }));
  child.once('close', (code, signal) => {
    stdins.delete(id);
    process.send({ type: 'close', id, code, signal });
  });
});

// the server is gone: so is every box (bwrap's --die-with-parent names this process), as when the server spawned them itself
process.on('disconnect', () => process.exit(0));
