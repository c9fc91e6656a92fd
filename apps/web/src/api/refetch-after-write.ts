import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Reads `queryKey` again after a write, dropping a read already under way first. `invalidateQueries`
 * alone hands a query still loading its first answer that same request (it cancels a refetch only when
 * data is held), and that answer may have been read before the write committed: a Git account connected
 * as the page loads (the provider's redirect) stayed out of the list.
 */
export async function refetchAfterWrite(qc: QueryClient, queryKey: QueryKey) {
  await qc.cancelQueries({ queryKey });
  await qc.invalidateQueries({ queryKey });
}
