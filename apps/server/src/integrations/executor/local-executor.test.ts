import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runProcess, AbortedError } from './local-executor.js';
import { testTempDir } from '@gantry/test-support/temp-dir';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

describe('local executor', () => {
  it('streams stdout and stderr by line and answers the exit code', async () => {
    const lines: string[] = [];
    const code = await runProcess('bash', ['-c', 'echo one; echo two >&2; printf "three"; exit 3'], {
      cwd: os.tmpdir(),
      env,
      signal: new AbortController().signal,
      onLine: (l) => lines.push(l),
    });
    expect(code).toBe(3);
    expect(lines.sort()).toEqual(['one', 'three', 'two']);
  });

  it('an abort ends the whole process tree, children included', async () => {
    const dir = testTempDir('exec-');
    const pidFile = path.join(dir, 'child.pid');
    const abort = new AbortController();
    const run = runProcess('bash', ['-c', `sleep 300 & echo $! > ${pidFile}; wait`], {
      cwd: dir,
      env,
      signal: abort.signal,
      onLine: () => undefined,
      killGraceMs: 500,
    });
    while (!fs.existsSync(pidFile) || !fs.readFileSync(pidFile, 'utf8').trim()) await new Promise((r) => setTimeout(r, 20));
    const childPid = Number(fs.readFileSync(pidFile, 'utf8'));
    abort.abort();
    await expect(run).rejects.toBeInstanceOf(AbortedError);
    // the grandchild is gone too (a zombie waiting for its reaper counts as gone)
    const alive = () => {
      try {
        return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${childPid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
  });

  it('refuses to start when already aborted', async () => {
    const abort = new AbortController();
    abort.abort();
    await expect(runProcess('true', [], { cwd: os.tmpdir(), env, signal: abort.signal, onLine: () => undefined })).rejects.toBeInstanceOf(AbortedError);
  });
});
