import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GitProvider } from '@gantry/contracts';
import { http } from '../../../api/http';
import { gitAccountKeys } from './keys';

/**
 * The authorize page of each provider configured on the server, null when not configured.
 * Same shape as `GitProviders` in packages/contracts/src/git-accounts.ts (not exported from the
 * contracts index yet, so it is written here once).
 */
export type GitProviderLinks = Record<GitProvider, { authorizeUrl: string } | null>;

export const getGitProviders = () => http.get<GitProviderLinks>('/ms-ap/git-providers');

export const gitProvidersQuery = () => queryOptions({ queryKey: gitAccountKeys.providers(), queryFn: getGitProviders, staleTime: 5 * 60_000 });

export const useGitProviders = (enabled = true) => useQuery({ ...gitProvidersQuery(), enabled });
