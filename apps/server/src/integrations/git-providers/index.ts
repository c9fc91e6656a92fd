import type { GitProvider } from '@gantry/contracts';
import type { Config } from '../../config.js';
import type { GitProviderClient } from './git-provider.js';
import { createGithubClient } from './github-client.js';
import { createGitlabClient } from './gitlab-client.js';
import { createBitbucketClient } from './bitbucket-client.js';

export * from './git-provider.js';
export { createGithubClient, createGitlabClient, createBitbucketClient };

export type GitProviderClients = Record<GitProvider, GitProviderClient | null>;

export type GitProvidersConfig = Pick<
  Config,
  | 'GITHUB_CLIENT_ID'
  | 'GITHUB_CLIENT_SECRET'
  | 'GITHUB_OAUTH_URL'
  | 'GITHUB_API_URL'
  | 'GITLAB_CLIENT_ID'
  | 'GITLAB_CLIENT_SECRET'
  | 'GITLAB_URL'
  | 'BITBUCKET_CLIENT_ID'
  | 'BITBUCKET_CLIENT_SECRET'
  | 'BITBUCKET_OAUTH_URL'
  | 'BITBUCKET_API_URL'
>;

/**
 * One client per provider whose OAuth client id is configured (null otherwise). `redirectUri(type)` is where
 * the provider sends the browser back: the portal's `/settings?tab=git&type=<type>`, which finishes the connection
 * (read at each use, so a base URL known only after start is fine).
 */
export function createGitProviderClients(config: GitProvidersConfig, redirectUri?: (type: GitProvider) => string): GitProviderClients {
  return {
    github: config.GITHUB_CLIENT_ID
      ? createGithubClient({
          clientId: config.GITHUB_CLIENT_ID,
          clientSecret: config.GITHUB_CLIENT_SECRET ?? '',
          oauthUrl: config.GITHUB_OAUTH_URL,
          apiUrl: config.GITHUB_API_URL,
          get redirectUri() {
            return redirectUri?.('github');
          },
        })
      : null,
    gitlab: config.GITLAB_CLIENT_ID
      ? createGitlabClient({
          clientId: config.GITLAB_CLIENT_ID,
          clientSecret: config.GITLAB_CLIENT_SECRET ?? '',
          url: config.GITLAB_URL,
          get redirectUri() {
            return redirectUri?.('gitlab');
          },
        })
      : null,
    bitbucket: config.BITBUCKET_CLIENT_ID
      ? createBitbucketClient({
          clientId: config.BITBUCKET_CLIENT_ID,
          clientSecret: config.BITBUCKET_CLIENT_SECRET ?? '',
          oauthUrl: config.BITBUCKET_OAUTH_URL,
          apiUrl: config.BITBUCKET_API_URL,
          get redirectUri() {
            return redirectUri?.('bitbucket');
          },
        })
      : null,
  };
}
