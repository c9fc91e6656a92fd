import { SPEC_FILE_NAMES, specFilePath, type GitProvider } from '@gantry/contracts';
import type { PushEvent } from '../../integrations/git-providers/index.js';

/** What pipelines and builds need from a connected git account (the git-accounts service provides it). */
export interface GitClientForBuilds {
  cloneUrl(repoUrl: string, token: string): string;
  getCommit(token: string, repo: string, ref: string): Promise<{ sha: string; message: string; author: string; avatar: string | null }>;
  getFile(token: string, repo: string, ref: string, path: string): Promise<string | null>;
  listRepositories(token: string): Promise<{ id: string; fullName: string; url: string; defaultBranch?: string }[]>;
  createWebhook(token: string, repo: string, url: string, secret: string): Promise<string>;
  deleteWebhook(token: string, repo: string, id: string): Promise<void>;
  parsePush(headers: Record<string, string | string[] | undefined>, rawBody: string, secret: string): PushEvent | null;
  /** The files changed between two commits, for pushes whose payload does not list them all (Bitbucket, long pushes). */
  changedFiles?(token: string, repo: string, before: string | null, after: string): Promise<string[]>;
}

export interface GitAccess {
  clientFor(projectId: string, gitAccountId: string): Promise<{ client: GitClientForBuilds; token: string; account: { type: GitProvider } }>;
}

/**
 * The spec kept in the repository at a ref: `gantry.yaml` under the work dir, else the original
 * product's `.microtica/microtica.yaml` there; null when neither is (or the provider cannot be read).
 */
export async function readRepoSpec(
  git: { client: Pick<GitClientForBuilds, 'getFile'>; token: string },
  repo: string,
  ref: string,
  workDir: string,
): Promise<{ file: string; text: string } | null> {
  for (const name of SPEC_FILE_NAMES) {
    const file = specFilePath(workDir, name);
    const text = await git.client.getFile(git.token, repo, ref, file).catch(() => null);
    if (text !== null) return { file, text };
  }
  return null;
}

/** The branch a spec is read from when no build names one: the filter itself when it is a plain branch name. */
export function defaultBranchOf(branchFilter: string, repoDefault = 'main'): string {
  return /^[\w./-]+$/.test(branchFilter) ? branchFilter : repoDefault;
}
