import { describe, it, expect } from 'vitest';
import { branchNameProblem, isValidBranchName, TriggerBody } from './index.js';

/** Each row checked against `git check-ref-format --branch` (git 2.4x). */
const refused: [string, string][] = [
  ['empty', ''],
  ['two dots', 'a..b'],
  ['two dots at the end', 'a..'],
  ['only two dots', '..'],
  ['@{', 'a@{b'],
  ['@{-1}', '@{-1}'],
  ['control character', 'a\u0001b'],
  ['tab', 'a\tb'],
  ['DEL', 'a\u007fb'],
  ['NUL', 'a\u0000b'],
  ['newline', 'main\nevil'],
  ['space', 'a b'],
  ['tilde', 'a~b'],
  ['caret', 'a^b'],
  ['colon', 'a:b'],
  ['question mark', 'a?b'],
  ['star', 'a*b'],
  ['open bracket', 'a[b'],
  ['backslash', 'a\\b'],
  ['leading dash', '-a'],
  ['option-like', '--upload-pack=touch /tmp/x'],
  ['trailing .lock', 'a.lock'],
  ['.lock inside a path part', 'a/b.lock/c'],
  ['trailing slash', 'a/'],
  ['leading slash', '/a'],
  ['trailing dot', 'a.'],
  ['double slash', 'a//b'],
  ['leading dot', '.a'],
  ['part with leading dot', 'a/.b'],
  ['dot part', 'a/./b'],
  ['HEAD', 'HEAD'],
];

const accepted: [string, string][] = [
  ['a feature branch', 'feat/x-1'],
  ['main', 'main'],
  ['release with dots', 'release/1.2.3'],
  ['shell metacharacters are valid ref names', 'feat$(touch${IFS}/tmp/x)'],
  ['backtick and semicolon', 'a`b`;c'],
  ['@ inside', 'a@b'],
  ['.lock not at the end', 'a.lock.b'],
  ['braces', 'a{b}'],
  ['unicode', 'é/ü'],
  ['dash inside a path', 'a/-b'],
];

describe('branch names (git check-ref-format --branch)', () => {
  it.each(refused)('refuses %s', (_what, name) => {
    expect(isValidBranchName(name)).toBe(false);
    expect(branchNameProblem(name)).toEqual(expect.any(String));
  });
  it.each(accepted)('accepts %s', (_what, name) => {
    expect(branchNameProblem(name)).toBeNull();
  });

  it('is part of the manual trigger body', () => {
    expect(TriggerBody.safeParse({ ref: 'refs/heads/feat/x-1' }).success).toBe(true);
    expect(TriggerBody.safeParse({ ref: 'refs/heads/feat$(touch${IFS}/tmp/x)' }).success).toBe(true);
    const bad = TriggerBody.safeParse({ ref: 'refs/heads/a..b' });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.message).toMatch(/branch name/);
  });
});
