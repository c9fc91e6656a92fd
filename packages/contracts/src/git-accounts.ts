import { z } from 'zod';
import { InputText } from './common.js';
import { GitAccount, GitRepository, type GitProvider } from './pipelines.js';

/** GET /ms-ap/git-providers: the authorize page of each configured provider, null when not configured. */
export const GitProviderLink = z.object({ authorizeUrl: z.string() }).nullable();
export const GitProviders = z.object({ github: GitProviderLink, gitlab: GitProviderLink, bitbucket: GitProviderLink });
export type GitProviders = z.infer<typeof GitProviders>;

export const GitAccountList = z.object({ gitAccounts: z.array(GitAccount) });
export type GitAccountList = z.infer<typeof GitAccountList>;
export const ConnectedGitAccount = z.object({ gitAccountId: z.string() });
export type ConnectedGitAccount = z.infer<typeof ConnectedGitAccount>;
export const GitRepositoryList = z.object({ repositories: z.array(GitRepository) });
export type GitRepositoryList = z.infer<typeof GitRepositoryList>;
export const GitBranchesQuery = z.object({ repositoryUrl: InputText().trim().min(1, 'Git repository is required') });
export type GitBranchesQuery = z.infer<typeof GitBranchesQuery>;
export const GitBranchList = z.object({ branches: z.array(z.string()) });
export type GitBranchList = z.infer<typeof GitBranchList>;

/** Where a provider sends the browser back after authorizing: the Git tab finishes the connection from it (spec §2.9). */
export const gitConnectRedirectPath = (type: GitProvider) => `/settings?tab=git&type=${type}`;
