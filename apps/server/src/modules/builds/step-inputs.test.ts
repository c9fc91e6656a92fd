import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { resolvePlaceholders } from '@gantry/contracts';
import { shellSafePlaceholders } from './builds.jobs.js';
import { gitCredentials } from './step-handlers.js';

describe('placeholders in shell commands', () => {
  const run = (command: string, vars: Record<string, string>) =>
    execFileSync('bash', ['-c', resolvePlaceholders(command, shellSafePlaceholders(vars))], {
      env: { PATH: '/usr/bin:/bin', ...vars },
      encoding: 'utf8',
    }).trim();

  it('puts plain values in as they are', () => {
    expect(shellSafePlaceholders({ GANTRY_BRANCH: 'feature/x-1.2', GANTRY_COMMIT: 'abc123' })).toEqual({
      GANTRY_BRANCH: 'feature/x-1.2',
      GANTRY_COMMIT: 'abc123',
    });
  });

  it.each([
    ['unquoted', 'echo {{GANTRY_BRANCH}}'],
    ['double-quoted', 'echo "b={{GANTRY_BRANCH}}"'],
    ['in a command substitution', 'echo $(echo {{GANTRY_BRANCH}})'],
  ])('never runs a branch name as code (%s)', (_where, command) => {
    const branch = 'feat$(echo${IFS}INJECTED-$((6*7)))';
    const out = run(command, { GANTRY_BRANCH: branch });
    expect(out).not.toContain('INJECTED-42');
    expect(out).toContain(branch);
  });

  it('a value with a quote or a backtick stays data', () => {
    expect(run('echo "{{V}}"', { V: 'a\'b`id`"c' })).toBe('a\'b`id`"c');
  });
});

describe('git credentials', () => {
  it('takes the token out of the clone URL and gives it to git through a helper reading its environment', () => {
    const auth = gitCredentials('https://x-access-token:gho_s3cr%2Ft@github.com/acme/app.git');
    expect(auth.url).toBe('https://github.com/acme/app.git');
    expect(auth.env).toEqual({ GANTRY_GIT_USERNAME: 'x-access-token', GANTRY_GIT_PASSWORD: 'gho_s3cr/t' });
    expect(auth.config.join(' ')).not.toContain('gho_');
    // the helper answers git's "get" with the values from its environment
    const helper = auth.config[3]!.replace(/^credential\.helper=!/, '');
    const out = execFileSync('bash', ['-c', `${helper} get`], { env: { PATH: '/usr/bin:/bin', ...auth.env }, encoding: 'utf8' });
    expect(out).toBe('username=x-access-token\npassword=gho_s3cr/t\n');
  });

  it('leaves a URL without credentials alone', () => {
    expect(gitCredentials('http://127.0.0.1:9/acme.git')).toEqual({ url: 'http://127.0.0.1:9/acme.git', config: [], env: {} });
  });
});
