import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, it, expect, afterAll } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const gitEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'demo-clone-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('npm run demo:git', () => {
  it('starts the stand-in with the sample repository, prints how to connect Gantry, and serves a clone', { timeout: 60_000 }, async () => {
    // its own process group, so the stop reaches node behind npm
    const child = spawn('npm', ['run', '--silent', 'demo:git'], {
      cwd: root,
      env: { ...process.env, GIT_DEMO_PORT: '0' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        const seen = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Ctrl+C stops the stand-in')) resolve();
        };
        child.stdout.on('data', seen);
        child.stderr.on('data', seen);
        void exited.then((code) => reject(new Error(`demo:git exited (${code}):\n${output}`)));
      });
      const base = /is running at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)![1]!;
      expect(output).toContain(`export GITHUB_OAUTH_URL=${base}/github\n`);
      expect(output).toContain(`export GITHUB_API_URL=${base}/github/api/v3\n`);
      expect(output).toContain('export GITHUB_CLIENT_ID=standin-github-client\n');
      expect(output).toContain('Settings → Git Accounts → Connect Account → GitHub');
      const cloneUrl = /git clone (\S+)/.exec(output)![1]!;
      expect(cloneUrl).toMatch(new RegExp(`^http://dev:gho_[0-9a-f]+@${new URL(base).host}/github/demo/hello-gantry\\.git$`));

      await run('git', ['clone', '--quiet', cloneUrl, dir], { env: gitEnv });
      expect(fs.readFileSync(path.join(dir, 'gantry.yaml'), 'utf8')).toContain('type: git-clone');
      expect(fs.existsSync(path.join(dir, 'build.sh'))).toBe(true);
      // the branch a new pipeline's filter starts with
      expect((await run('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { cwd: dir, env: gitEnv })).stdout.trim()).toBe('master');
      const noToken = new URL(cloneUrl);
      noToken.password = '';
      await expect(run('git', ['ls-remote', noToken.toString()], { env: gitEnv })).rejects.toThrow();
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  });
});
