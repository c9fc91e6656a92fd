import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { VERSION_PAGE, type MicroserviceVersions } from '@gantry/contracts';
import { http } from '../../../api/http';
import { isApiError } from '../../../api/errors';
import { nextVersionsOffset, sortVersions } from '../lib/versions';
import { microservicePath, serviceKeys } from './keys';

/** getMicroserviceVersions (spec §7): the image tags of the service's repository, a page at a time. */
export const listMicroserviceVersions = (projectId: string, name: string, offset: number, signal?: AbortSignal) =>
  http.get<MicroserviceVersions>(`${microservicePath(projectId, name)}/versions`, { query: { offset, limit: VERSION_PAGE.limit }, signal });

/** Spec §4/§8: a 503 (the registry not reachable for now) is retried for as long as the dialog asks; other errors end loading. */
export const retryWhile503 = (_failures: number, error: unknown) => isApiError(error) && error.status === 503;
const retryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 5000);

/**
 * Every version of a service, read 10 at a time from offset 0 while full pages come back, sorted 'latest' first
 * then newest first. `retrying` is true while a 503 is being retried.
 */
export function useMicroserviceVersions(projectId: string, name: string | undefined, enabled = true) {
  const query = useInfiniteQuery({
    queryKey: serviceKeys.versions(projectId, name ?? ''),
    queryFn: ({ pageParam, signal }) => listMicroserviceVersions(projectId, name ?? '', pageParam, signal),
    initialPageParam: VERSION_PAGE.offset as number,
    getNextPageParam: (page, _all, offset) => nextVersionsOffset(page, offset),
    retry: retryWhile503,
    retryDelay,
    enabled: enabled && Boolean(projectId && name),
  });
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  const pages = query.data?.pages;
  const tags = useMemo(() => sortVersions(pages?.flatMap((p) => p.tags) ?? []), [pages]);
  const retrying = query.isFetching && query.failureCount > 0;
  return { ...query, tags, retrying, loading: query.isPending || hasNextPage || isFetchingNextPage };
}
