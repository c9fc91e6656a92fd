import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createSandbox } from './sandbox.js';
import { openBox } from './opened-box.js';
import type { LaunchedProcess } from './launcher.js';

/** A box opened before its command (real bubblewrap): the command then runs as in a box spawned for it. */
const sandbox = createSandbox({ mode: 'bwrap' });
let root: string;
let workspace: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'opened-box-'));
  workspace = path.join(root, 'ws');
  fs.mkdirSync(workspace, { mode: 0o755 });
  sandbox.handOver(workspace);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function ended(p: LaunchedProcess) {
  const out: string[] = [];
  const err: string[] = [];
  p.stdout.on('data', (c: Buffer) => out.push(c.toString('utf8')));
  p.stderr.on('data', (c: Buffer) => err.push(c.toString('utf8')));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    p.once('close', (code: number | null) => resolve({ code, stdout: out.join(''), stderr: err.join('') })),
  );
}

const open = () => openBox(sandbox, { mounts: [{ path: workspace, writable: true }], cwd: workspace });

describe('a box opened before its command', { timeout: 60_000 }, () => {
  it('runs the command as its pid 1 with exactly the arguments and environment handed, stdin /dev/null, as the sandbox uid', async () => {
    const box = open();
    let pid: number | undefined;
    const p = box.exec(
      'bash',
      [
        '-c',
        'echo "pid=$$ args=[$1|$2]"; env -0 | sort -z | base64 -w0; echo; id -u; pwd; cat; ls /proc | grep -c "^[0-9]"; exit 5',
        'cmd',
        'two words',
        'a=b\nc',
      ],
      { PATH: '/usr/bin:/bin', SECRET: 'multi\nline value', WITH_EQ: 'x=y' },
      (n) => (pid = n),
    )!;
    const r = await ended(p);
    expect(r.code).toBe(5);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('pid=1 args=[two words|a=b');
    expect(lines[1]).toBe('c]');
    const env = Buffer.from(lines[2]!, 'base64').toString('utf8').split('\0').filter(Boolean);
    expect(env).toEqual(['PATH=/usr/bin:/bin', `PWD=${workspace}`, 'SECRET=multi\nline value', 'SHLVL=1', 'WITH_EQ=x=y', '_=/usr/bin/env']);
    expect(Number(lines[3])).toBe(sandbox.uid);
    expect(lines[4]).toBe(workspace);
    expect(Number(lines[5])).toBeLessThanOrEqual(3); // bash, ls and grep: nothing of the host
    expect(pid).toBeGreaterThan(1);
  });

  it("tells the command's host pid: a SIGINT sent there reaches it (a cancelled terraform saves its state)", async () => {
    const box = open();
    let pid: number | undefined;
    const p = box.exec(
      'bash',
      ['-c', 'trap "echo interrupted; exit 9" INT; echo ready; while :; do sleep 0.05; done'],
      { PATH: '/usr/bin:/bin' },
      (n) => (pid = n),
    )!;
    const r = ended(p);
    await new Promise<void>((resolve) => p.stdout.once('data', () => resolve()));
    expect(fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim()).toBe('bash');
    process.kill(pid!, 'SIGINT');
    expect(await r).toMatchObject({ code: 9, stdout: 'ready\ninterrupted\n' });
  });

  it('closed before a command, it ends having run nothing; one command per box', async () => {
    const box = open();
    const p = box.exec('true', [], { PATH: '/usr/bin:/bin' }, () => undefined)!;
    expect((await ended(p)).code).toBe(0);
    expect(() => box.exec('true', [], {}, () => undefined)).toThrow();

    const unused = open();
    unused.close();
    expect(() => unused.exec('true', [], {}, () => undefined)).toThrow();
  });

  it('a box that could not open runs nothing: no process (the caller spawns one) or one that failed, never one left waiting', async () => {
    const box = openBox(sandbox, { mounts: [{ path: path.join(root, 'missing'), writable: true }], cwd: workspace });
    const p = box.exec('bash', ['-c', 'echo ran'], { PATH: '/usr/bin:/bin' }, () => undefined);
    if (p) expect(await ended(p)).toMatchObject({ code: 1, stdout: '' });
  });
});
