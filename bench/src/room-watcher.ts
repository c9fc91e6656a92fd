import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface RunEnded {
  status: string;
  error: string | null;
  /** When the watcher received it: ms on the clock of `performance.timeOrigin + performance.now()`. */
  at: number;
}

/**
 * A member's browser on a project's room, in a process of its own: it hears `deployment:update` when the
 * server sends it, whatever the server (in the bench's process) goes on to do after the send.
 */
export async function startRoomWatcher(url: string, idToken: string, projectId: string) {
  const require = createRequire(import.meta.url);
  const child = fork(fileURLToPath(new URL('./room-watcher-child.ts', import.meta.url)), [url, idToken, projectId], {
    execArgv: ['--import', pathToFileURL(require.resolve('tsx')).href],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ended = new Map<string, RunEnded>();
  const waiting = new Map<string, (e: RunEnded) => void>();
  const answers = new Map<number, (a: { sent: number; statusCode: number; body: any }) => void>();
  let nextId = 0;
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the room watcher exited (${code})`)));
    child.on(
      'message',
      (m: { ready?: true; id?: number; sent?: number; statusCode?: number; body?: unknown } & Partial<RunEnded> & { deploymentId?: string }) => {
        if (m.ready) return resolve();
        if (m.id !== undefined) return answers.get(m.id)?.({ sent: m.sent!, statusCode: m.statusCode!, body: m.body });
        const e = { status: m.status!, error: m.error ?? null, at: m.at! };
        ended.set(m.deploymentId!, e);
        waiting.get(m.deploymentId!)?.(e);
      },
    );
  });
  return {
    /** POSTs to `path` from the watcher's process (as the member's browser); `sent`: when, on the clock `ended` uses. */
    post: (path: string) =>
      new Promise<{ sent: number; statusCode: number; body: any }>((resolve) => {
        const id = nextId++;
        answers.set(id, resolve);
        child.send({ post: path, id });
      }),
    /** The end of a deployment, as the watcher heard it. */
    ended: (deploymentId: string) => ended.get(deploymentId) ?? new Promise<RunEnded>((r) => waiting.set(deploymentId, r)),
    close: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}
