import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import { launch, type LaunchedProcess } from './launcher.js';
import { testTempDir } from '@gantry/test-support/temp-dir';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

/** Everything a launched process wrote, its exit and whether it reported an error. */
function collect(p: LaunchedProcess) {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  p.stdout.on('data', (c: Buffer) => out.push(c));
  p.stderr.on('data', (c: Buffer) => err.push(c));
  let error: (Error & { code?: string }) | undefined;
  let exited: number | null | undefined;
  p.once('error', (e: Error) => (error = e));
  p.once('exit', (code: number | null) => (exited = code));
  return new Promise<{ stdout: string; stderr: string; code: number | null; exited?: number | null; error?: Error & { code?: string } }>((resolve) =>
    p.once('close', (code: number | null) =>
      resolve({ stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code, exited, error }),
    ),
  );
}

describe('process launcher', () => {
  it('writes stdin through to the process when asked for, and ends it', async () => {
    const p = launch('bash', ['-c', 'while IFS= read -r -d "" f; do echo "got $f"; done; echo eof'], { cwd: os.tmpdir(), env, stdin: true });
    p.stdin!.write('one\0two');
    p.stdin!.write('\0');
    p.stdin!.end();
    const r = await collect(p);
    expect(r.stdout).toBe('got one\ngot two\neof\n');
    expect(r.code).toBe(0);
  });

  it('runs the command in its cwd with exactly the env given, streams stdout and stderr whole and in order, and answers the exit code', async () => {
    const dir = testTempDir('launch-');
    const p = launch('bash', ['-c', 'pwd; echo "v=$ONLY"; echo "home=${HOME:-none}"; seq 1 20000 >&2; read x || echo no-stdin; exit 7'], {
      cwd: dir,
      env: { ...env, ONLY: 'this' },
    });
    const r = await collect(p);
    expect(r.code).toBe(7);
    expect(r.exited).toBe(7);
    expect(r.stdout.trim().split('\n')).toEqual([fs.realpathSync(dir), 'v=this', 'home=none', 'no-stdin']);
    expect(r.stderr).toBe(`${Array.from({ length: 20000 }, (_, i) => i + 1).join('\n')}\n`);
  });

  it('spawns from the launcher, not from this process, each command leading its own process group', async () => {
    const p = launch('bash', ['-c', 'cut -d" " -f4,5 /proc/$$/stat'], { cwd: os.tmpdir(), env });
    const pid = new Promise<number | undefined>((resolve) => p.once('spawn', () => resolve(p.pid)));
    const r = await collect(p);
    const [ppid, pgid] = r.stdout.trim().split(' ').map(Number);
    expect(pgid).toBe(await pid);
    expect(ppid).not.toBe(process.pid);
  });

  it('reports a command that cannot start as an error with its code, then closes', async () => {
    const r = await collect(launch('/no/such/command', [], { cwd: os.tmpdir(), env }));
    expect(r.error?.code).toBe('ENOENT');
  });

  it('a signal sent to the pid reaches the process', async () => {
    const p = launch('sleep', ['300'], { cwd: os.tmpdir(), env });
    p.once('spawn', () => process.kill(p.pid!, 'SIGTERM'));
    const r = await collect(p);
    expect(r.code).toBeNull();
  });
});
