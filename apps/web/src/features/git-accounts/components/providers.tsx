import { IconBrandBitbucket, IconBrandGithub, IconBrandGitlab } from '@tabler/icons-react';
import type { GitProvider } from '@gantry/contracts';
import type { ReactNode } from 'react';

/** The three account types in the order of the 'Select Account Type' modal (spec §2.9). */
export const PROVIDERS: { type: GitProvider; label: string; color: string; icon: (size: number) => ReactNode; description: string }[] = [
  {
    type: 'github',
    label: 'Github',
    color: 'dark',
    icon: (s) => <IconBrandGithub size={s} stroke={1.6} />,
    description: 'Repositories of your GitHub user and organizations',
  },
  {
    type: 'bitbucket',
    label: 'Bitbucket',
    color: 'blue',
    icon: (s) => <IconBrandBitbucket size={s} stroke={1.6} />,
    description: 'Repositories of your Bitbucket workspaces',
  },
  {
    type: 'gitlab',
    label: 'GitLab',
    color: 'orange',
    icon: (s) => <IconBrandGitlab size={s} stroke={1.6} />,
    description: 'Projects of your GitLab user and groups',
  },
];

export const providerOf = (type: string) => PROVIDERS.find((p) => p.type === type);

/** Where the provider sends the browser back: the Git tab, which finishes the connection (spec §2.9). */
export const connectRedirectUri = (type: GitProvider) => `${window.location.origin}/settings?tab=git&type=${type}`;

/** The provider's authorize page; the server's URL holds client_id, scope, state and normally redirect_uri already. */
export const authorizeUrlWithRedirect = (authorizeUrl: string, type: GitProvider) =>
  new URL(authorizeUrl).searchParams.has('redirect_uri')
    ? authorizeUrl
    : `${authorizeUrl}${authorizeUrl.includes('?') ? '&' : '?'}redirect_uri=${encodeURIComponent(connectRedirectUri(type))}`;
