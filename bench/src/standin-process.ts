import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The git stand-in in a process of its own. It stands for a remote provider (GitHub): the git
 * processes it spawns for each API call (rev-parse, cat-file, diff-tree…) must not block the event
 * loop of the Gantry under measure, as they did when it ran in the bench's own process.
 */
export async function startStandinProcess() {
  const require = createRequire(import.meta.url);
  const child = fork(fileURLToPath(new URL('./standin-child.ts', import.meta.url)), [], {
    execArgv: ['--import', pathToFileURL(require.resolve('tsx')).href],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  const env = await new Promise<Record<string, string>>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the git stand-in exited (${code})`)));
    child.on('message', (m: { ready?: Record<string, string>; id?: number; result?: unknown; error?: string }) => {
      if (m.ready) return resolve(m.ready);
      const w = waiting.get(m.id!);
      waiting.delete(m.id!);
      if (m.error) w?.reject(new Error(m.error));
      else w?.resolve(m.result);
    });
  });
  const call = (method: 'createRepo' | 'issueCode', ...args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      child.send({ id, method, args });
    });
  return {
    env,
    createRepo: (fullName: string, files: Record<string, string>) => call('createRepo', fullName, files),
    issueCode: async (provider: 'github') => (await call('issueCode', provider)) as string,
    /** A GitHub access token of the stand-in, exchanged for a code as an OAuth app does. */
    async accessToken() {
      const code = (await call('issueCode', 'github')) as string;
      const res = await fetch(`${env.GITHUB_OAUTH_URL}/login/oauth/access_token`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ code, client_id: env.GITHUB_CLIENT_ID, client_secret: env.GITHUB_CLIENT_SECRET }),
      });
      const { access_token: token } = (await res.json()) as { access_token?: string };
      if (!token) throw new Error(`the stand-in gave no access token (${res.status})`);
      return token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}
