import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../../../api/http';
import { authKeys } from './keys';

export interface AuthProviders {
  github: { authorizeUrl: string } | null;
}

export const getProviders = () => http.get<AuthProviders>('/ms-usermanagement/auth/providers', { auth: false });

export const providersQuery = () => queryOptions({ queryKey: authKeys.providers(), queryFn: getProviders, staleTime: Infinity, retry: false });

export const useAuthProviders = () => useQuery(providersQuery());

/** The whole-page address of the GitHub sign-in: the server's authorize URL plus our redirect back to /login. */
export const githubSignInUrl = (authorizeUrl: string) => `${authorizeUrl}&redirect_uri=${encodeURIComponent(`${window.location.origin}/login`)}`;
