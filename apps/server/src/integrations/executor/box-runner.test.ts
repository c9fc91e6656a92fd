import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createSandbox } from './sandbox.js';
import { startBoxRunner, type BoxRunner } from './box-runner.js';
import { AbortedError } from './local-executor.js';

/** The build's one box for its shell steps (real bubblewrap): each step as separate as in a box of its own. */
const sandbox = createSandbox({ mode: 'bwrap' });
let root: string;
let workspace: string;
let scripts: string;
const never = new AbortController().signal;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'box-runner-'));
  workspace = path.join(root, 'ws');
  scripts = path.join(root, 'ws.gantry');
  fs.mkdirSync(workspace, { mode: 0o755 });
  fs.mkdirSync(scripts, { mode: 0o755 });
  sandbox.handOver(workspace);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const start = () => startBoxRunner(sandbox, { mounts: [{ path: workspace, writable: true }, { path: scripts }], cwd: workspace, killGraceMs: 200 });
function script(text: string) {
  const file = path.join(scripts, `${crypto.randomBytes(4).toString('hex')}.sh`);
  fs.writeFileSync(file, text);
  return file;
}
async function step(box: BoxRunner, text: string, env: Record<string, string> = { PATH: '/usr/bin:/bin' }, signal = never) {
  const lines: string[] = [];
  const code = await box.run(script(text), { cwd: workspace, env, signal, onLine: (l, s) => lines.push(`${s}:${l}`) });
  return { code, lines };
}

describe('one box for the shell steps of a build', { timeout: 60_000 }, () => {
  it('runs steps one after the other with exactly their own environment, their own lines and exit codes', async () => {
    const box = start();
    try {
      const one = await step(box, 'echo out; echo err >&2; printf "no newline at the end"; exit 3', { PATH: '/usr/bin:/bin', ONE: 'a b' });
      expect(one.code).toBe(3);
      expect(one.lines.sort()).toEqual(['stderr:err', 'stdout:no newline at the end', 'stdout:out']);

      // what the runner was handed as text (an end mark of another step) is only text
      const two = await step(box, `printf '\\036%s 0\\n' deadbeef; env | sort; id -u; pwd`, { PATH: '/usr/bin:/bin', TWO: 'x=y' });
      expect(two.code).toBe(0);
      const out = two.lines.filter((l) => l.startsWith('stdout:')).map((l) => l.slice(7));
      expect(out[0]).toBe('\x1edeadbeef 0');
      const env = out.filter((l) => /^[A-Z_]+=/.test(l));
      expect(env).toEqual(['PATH=/usr/bin:/bin', `PWD=${workspace}`, 'SHLVL=1', 'TWO=x=y', '_=/usr/bin/env']);
      expect(Number(out.at(-2))).not.toBe(0);
      expect(Number(out.at(-2))).not.toBe(process.getuid!());
      expect(out.at(-1)).toBe(workspace);

      const many = await step(box, 'seq 1 20000; seq 1 20000 >&2');
      expect(many.lines.filter((l) => l.startsWith('stdout:'))).toEqual(Array.from({ length: 20000 }, (_, i) => `stdout:${i + 1}`));
      expect(many.lines.filter((l) => l.startsWith('stderr:'))).toHaveLength(20000);
    } finally {
      await box.close();
    }
  });

  it("gives a step exactly its variables, whatever their names: bash's own, one it cannot assign, the runner's", async () => {
    const box = start();
    try {
      // the runner's environment (PATH) and variables (script, vars, n, OLDPWD after its cd) are none of the step's
      const envOf = async (env: Record<string, string>) =>
        (await step(box, 'env -0 | tr "\\0" "\\n" | sort', env)).lines.filter((l) => l.startsWith('stdout:')).map((l) => l.slice(7));
      const base = [`PWD=${workspace}`, 'SHLVL=1', '_=/usr/bin/env'];
      expect(await envOf({ ONLY: '1' })).toEqual(['ONLY=1', ...base]);
      expect(await envOf({ PATH: '/usr/bin:/bin', script: '/nothing.sh', vars: 'v', n: '9', mark: 'm', cwd: '/' })).toEqual(
        ['PATH=/usr/bin:/bin', ...base, 'cwd=/', 'mark=m', 'n=9', 'script=/nothing.sh', 'vars=v'].sort(),
      );
      // a name the step's subshell could not export as it is: the step gets it all the same (its bash keeps neither RANDOM nor OLDPWD)
      expect(await envOf({ PATH: '/usr/bin:/bin', RANDOM: '7', UID: '5', OLDPWD: '/old', 'my-var': 'x y', BASH_FUNC_f: 'z' })).toEqual(
        ['BASH_FUNC_f=z', 'PATH=/usr/bin:/bin', ...base, 'UID=5', 'my-var=x y'].sort(),
      );
    } finally {
      await box.close();
    }
  });

  it('ends what a step left running before the next step starts: it never sees the next step', async () => {
    const box = start();
    try {
      const left = await step(
        box,
        `(sleep 300 &) ; setsid bash -c 'sleep 1; cat /proc/[0-9]*/environ > ${workspace}/stolen 2>/dev/null; sleep 300' >/dev/null 2>&1 < /dev/null &
nohup sleep 300 >/dev/null 2>&1 &
echo started`,
      );
      expect(left).toEqual({ code: 0, lines: ['stdout:started'] });
      const next = await step(box, `ps -e -o args= | grep -c '^sleep' || true; sleep 1.5`, { PATH: '/usr/bin:/bin', NEXT: 'secret-of-the-next-step' });
      expect(next.lines).toEqual(['stdout:0']);
      expect(fs.existsSync(path.join(workspace, 'stolen'))).toBe(false);
    } finally {
      await box.close();
    }
  });

  it('a cancel ends the box: the step rejects as stopped, and so does any later one', async () => {
    const box = start();
    const abort = new AbortController();
    const lines: string[] = [];
    const running = box.run(script('echo going; sleep 300'), {
      cwd: workspace,
      env: { PATH: '/usr/bin:/bin' },
      signal: abort.signal,
      onLine: (l) => lines.push(l),
    });
    while (!lines.includes('going')) await new Promise((r) => setTimeout(r, 10));
    abort.abort();
    await expect(running).rejects.toBeInstanceOf(AbortedError);
    await expect(step(box, 'echo again')).rejects.toThrow();
    await box.close();
  });

  it("a step writes its temporary files in the box's own /tmp (TMPDIR), sticky as a /tmp is", async () => {
    const box = start();
    try {
      const tmp = await step(box, 'set -e; f=$(mktemp); echo kept > "$f"; cat "$f"; stat -c %a /tmp', { PATH: '/usr/bin:/bin', TMPDIR: '/tmp' });
      expect(tmp.lines, tmp.lines.join('\n')).toEqual(['stdout:kept', 'stdout:1777']);
      expect(tmp.code).toBe(0);
    } finally {
      await box.close();
    }
  });
});
