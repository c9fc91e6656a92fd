import type { Sandbox } from '../src/integrations/executor/sandbox.js';
import { runProcess } from '../src/integrations/executor/local-executor.js';

/** Runs a bash script in a box of `sandbox` (no mounts): its exit code and its lines. */
export async function inBox(sandbox: Sandbox, script: string, loopbackPorts: number[] = [], offline = false) {
  const lines: string[] = [];
  const code = await runProcess('bash', ['-c', script], {
    cwd: '/',
    env: { PATH: '/usr/sbin:/usr/bin:/sbin:/bin' },
    signal: new AbortController().signal,
    onLine: (l) => lines.push(l),
    box: { sandbox, run: { mounts: [], loopbackPorts, offline } },
  });
  return { code, lines };
}
