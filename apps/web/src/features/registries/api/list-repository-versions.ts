import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { ImageTag, RepositoryVersions } from '@gantry/contracts';
import { http } from '../../../api/http';
import { isApiError } from '../../../api/errors';
import { registryKeys, registryPath } from './keys';

/** Spec §4, §9: paging starts at offset 0 with 10 per page. */
export const VERSIONS_PAGE_SIZE = 10;
/** How long a registry that answers 503 is retried before the error is shown (30 tries, 2 s apart at most). */
const MAX_503_RETRIES = 30;

export const listRepositoryVersions = (
  projectId: string,
  registryName: string,
  repository: string,
  offset = 0,
  limit = VERSIONS_PAGE_SIZE,
  signal?: AbortSignal,
) => http.get<RepositoryVersions>(`${registryPath(projectId, registryName)}/versions`, { query: { repository, offset, limit }, signal });

/** The next offset, or undefined once the server says -1 (no more). */
export const nextVersionsOffset = (page: RepositoryVersions) => (page.lastElementCursor === -1 ? undefined : page.lastElementCursor);

/** Spec §4/§8: a 503 is retried automatically; any other error ends loading (the caller shows its message). */
export const retryOn503 = (failureCount: number, error: unknown) => isApiError(error) && error.status === 503 && failureCount < MAX_503_RETRIES;
export const retryDelay = (attempt: number) => Math.min(500 * 2 ** attempt, 2_000);

export const repositoryVersionsQuery = (projectId: string, registryName: string, repository: string) =>
  infiniteQueryOptions({
    queryKey: registryKeys.versions(projectId, registryName, repository),
    queryFn: ({ pageParam, signal }) => listRepositoryVersions(projectId, registryName, repository, pageParam, VERSIONS_PAGE_SIZE, signal),
    initialPageParam: 0,
    getNextPageParam: nextVersionsOffset,
    retry: retryOn503,
    retryDelay,
  });

/**
 * The versions (tags) of a repository, 10 a page, newest first with 'latest' first; `fetchNextPage`
 * while `hasNextPage`. Shared with the Kubernetes service form (through the feature's index).
 */
export function useRepositoryVersions(projectId: string | undefined, registryName: string | null | undefined, repository: string | null | undefined) {
  const query = useInfiniteQuery({
    ...repositoryVersionsQuery(projectId ?? '', registryName ?? '', repository ?? ''),
    enabled: Boolean(projectId && registryName && repository),
  });
  const tags: ImageTag[] = query.data?.pages.flatMap((p) => p.tags) ?? [];
  return { ...query, tags };
}
