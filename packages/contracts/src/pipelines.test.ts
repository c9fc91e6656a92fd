import { describe, it, expect } from 'vitest';
import {
  branchMatches,
  filesMatch,
  globToRegExp,
  successRate,
  msToMinutes,
  buildStatusClass,
  sortPipelines,
  formatDuration,
  PipelineBody,
  EnvironmentVariable,
  isBuildActive,
} from './pipelines.js';

describe('branch filter (a regex over the whole branch name)', () => {
  it.each([
    ['master', 'master', true],
    ['master', 'master-2', false],
    ['main|release/.*', 'release/1.2', true],
    ['main|release/.*', 'feature/x', false],
    ['feature/.+', 'feature/login', true],
    ['', 'anything', true],
    ['(unclosed', '(unclosed', true], // an invalid regex falls back to equality
  ])('%j matches %j: %s', (filter, branch, expected) => expect(branchMatches(filter, branch)).toBe(expected));
});

describe('modified-files globs (comma-separated; empty or / means any change)', () => {
  it.each([
    ['', ['README.md'], true],
    ['/', ['docs/a.md'], true],
    ['src/**', ['src/a/b/c.ts'], true],
    ['src/**', ['test/a.ts'], false],
    ['*.md', ['README.md'], true],
    ['*.md', ['docs/guide.md'], false],
    ['docs/*.md, src/**', ['docs/guide.md'], true],
    ['**/*.tf', ['infra/modules/vpc/main.tf'], true],
    ['**/*.tf', ['main.tf'], true],
    ['package.json', ['package.json'], true],
    ['src', ['src/index.ts'], true],
    ['src/?.ts', ['src/a.ts'], true],
    ['src/?.ts', ['src/ab.ts'], false],
    ['src/**', [], false],
  ])('%j against %j: %s', (globs, files, expected) => expect(filesMatch(globs, files)).toBe(expected));

  it('escapes regex characters in globs', () => {
    expect(globToRegExp('a+b.(c).txt').test('a+b.(c).txt')).toBe(true);
    expect(globToRegExp('a+b.(c).txt').test('aab.(c)xtxt')).toBe(false);
  });
});

describe('metrics (spec §9)', () => {
  it.each([
    [{ successfulExecutions: 0, failedExecutions: 0 }, '0.00'],
    [{ successfulExecutions: 1, failedExecutions: 2 }, '33.33'],
    [{ successfulExecutions: 5, failedExecutions: 0 }, '100.00'],
  ])('success rate of %j is %s', (m, expected) => expect(successRate(m)).toBe(expected));
  it('converts ms to minutes with 2 decimals', () => expect(msToMinutes(90_000)).toBe('1.50'));
  it.each([
    [0, '00:00:00'],
    [61_000, '00:01:01'],
    [3_723_000, '01:02:03'],
  ])('duration %i ms → %s', (ms, expected) => expect(formatDuration(ms)).toBe(expected));
});

describe('build status display (spec §4)', () => {
  it.each([
    ['RUNNING', 'warning'],
    ['SCHEDULING', 'warning'],
    ['SUCCEEDED', 'success'],
    ['FAILED', 'fail'],
    ['ABORTED', 'aborted'],
    ['QUEUED', 'queued'],
    ['WHATEVER', 'nobuild'],
    [null, 'nobuild'],
  ])('%s → %s', (status, cls) => expect(buildStatusClass(status)).toBe(cls));
  it('active means SCHEDULING, QUEUED or RUNNING', () => {
    expect(['SCHEDULING', 'QUEUED', 'RUNNING', 'SUCCEEDED'].map(isBuildActive)).toEqual([true, true, true, false]);
  });
});

describe('pipeline list order (latest build stop date, newest first; no build last)', () => {
  it('sorts', () => {
    const list = [
      { name: 'none', latestBuild: null },
      { name: 'old', latestBuild: { stopDate: '2026-01-01T00:00:00Z' } },
      { name: 'running', latestBuild: { stopDate: null, startDate: '2026-03-01T00:00:00Z' } },
      { name: 'new', latestBuild: { stopDate: '2026-02-01T00:00:00Z' } },
    ];
    expect(sortPipelines(list).map((p) => p.name)).toEqual(['running', 'new', 'old', 'none']);
  });
});

describe('pipeline form (spec §5)', () => {
  const valid = { name: 'web-app', gitAccountId: '6a1f7d3e-8c6e-4b0e-9b7a-1c2d3e4f5a6b', repositoryUrl: 'https://github.com/acme/web' };
  it('fills the defaults: branch master, workdir /, automated trigger on', () => {
    expect(PipelineBody.parse(valid)).toMatchObject({
      branchFilter: 'master',
      workDir: '/',
      automatedTrigger: true,
      modifiedFiles: '',
      environmentVariables: [],
    });
  });
  it.each([
    [{ ...valid, name: 'ab' }, 'Pipeline name must be at least 3 characters'],
    [{ ...valid, name: 'x'.repeat(31) }, 'Pipeline name must be at most 30 characters'],
    [{ ...valid, gitAccountId: '' }, 'Please select a Git account'],
    [{ ...valid, repositoryUrl: '' }, 'Git repository is required'],
    [{ ...valid, branchFilter: '' }, 'Branch filter is required'],
    [{ ...valid, branchFilter: '([' }, 'Branch filter is not a valid regular expression'],
  ])('%j → %s', (body, message) => {
    const r = PipelineBody.safeParse(body);
    expect(r.success ? null : r.error.issues[0]!.message).toBe(message);
  });
  it('environment variable rows need a key and a value', () => {
    expect(EnvironmentVariable.safeParse({ key: '', value: 'x' }).error!.issues[0]!.message).toBe('Please enter key and value');
    expect(EnvironmentVariable.safeParse({ key: 'A', value: '' }).error!.issues[0]!.message).toBe('Please enter key and value');
    expect(EnvironmentVariable.parse({ key: 'API_KEY', value: 's' })).toEqual({ key: 'API_KEY', value: 's', sensitive: false });
  });
});

import { repositoryWebUrl, repositoryName } from './repository-url.js';

describe('repository links', () => {
  it.each([
    ['https://github.com/acme/web.git', 'https://github.com/acme/web', 'acme/web'],
    ['git@gitlab.com:group/sub/app.git', 'https://gitlab.com/group/sub/app', 'group/sub/app'],
    ['https://x-access-token:secret@github.com/acme/web', 'https://github.com/acme/web', 'acme/web'],
    ['/srv/git/repo.git', null, '/srv/git/repo.git'],
  ])('%s → %s', (url, web, name) => {
    expect(repositoryWebUrl(url)).toBe(web);
    expect(repositoryName(url)).toBe(name);
  });
});
