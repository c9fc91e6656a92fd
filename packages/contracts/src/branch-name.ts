/**
 * Git branch names as `git check-ref-format --branch` takes them (git-check-ref-format(1)), for
 * branches that arrive from outside: a manual trigger's ref, a push webhook's branch. Pure.
 * Shell metacharacters such as `$(…)` are valid in a branch name; quoting them is the build
 * runner's job, not this rule's.
 */
export const BRANCH_NAME_MESSAGE = 'Not a valid git branch name';

// Control characters (incl. DEL), space, ~ ^ : ? * [ and backslash are refused anywhere.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARACTERS = /[\u0000-\u0020\u007f~^:?*[\\]/;

/** Why git would refuse `name` as a branch name, or null when it is a valid one. */
export function branchNameProblem(name: string): string | null {
  if (name === '') return 'The branch name is empty';
  if (name === 'HEAD' || name === '@') return `${name} is not a branch name`; // both mean the current commit to git
  if (name.startsWith('-')) return 'A branch name cannot start with "-"';
  if (FORBIDDEN_CHARACTERS.test(name)) return 'A branch name cannot contain spaces, control characters or any of ~ ^ : ? * [ \\';
  if (name.includes('..')) return 'A branch name cannot contain ".."';
  if (name.includes('@{')) return 'A branch name cannot contain "@{"';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'A branch name cannot start or end with "/" or contain "//"';
  if (name.endsWith('.')) return 'A branch name cannot end with "."';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return 'No part of a branch name can start with "."';
    if (part.endsWith('.lock')) return 'No part of a branch name can end with ".lock"';
  }
  return null;
}

export const isValidBranchName = (name: string) => branchNameProblem(name) === null;
