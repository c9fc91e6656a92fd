import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './errors';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: false,
      // Client errors (401, 402, 403, 404, 409…) will not change on a retry.
      retry: (count, error) => (isApiError(error) && error.status < 500 ? false : count < 2),
    },
    mutations: { retry: false },
  },
});
