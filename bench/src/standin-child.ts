// The git stand-in in a process of its own (standin-process.ts): answers the bench's calls over IPC.
import { startGitStandin } from '@gantry/test-support/git-standin/index';

const standin = await startGitStandin();
type Call = { id: number; method: 'createRepo' | 'issueCode'; args: unknown[] };
process.on('message', async ({ id, method, args }: Call) => {
  try {
    const result = method === 'createRepo' ? await standin.createRepo(...(args as [string, Record<string, string>])) : standin.issueCode(args[0] as 'github');
    process.send!({ id, result: result ?? null });
  } catch (err) {
    process.send!({ id, error: (err as Error).message });
  }
});
process.on('disconnect', () => void standin.close().finally(() => process.exit(0)));
process.send!({ ready: standin.env });
