import { Card, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { EmptyState, type EmptyStateProps } from './EmptyState';
import { SearchInput } from './SearchInput';

/**
 * The card of a list page (clusters, services, registries, schedules…): its empty state, or a search box with the
 * count above the table — and the list's error in place of the table when nothing was loaded.
 */
export function SearchableTableCard({
  empty,
  noun: [one, many],
  total,
  search,
  error,
  children,
}: {
  /** Shown instead of everything else when the list has no rows at all. */
  empty: EmptyStateProps | false | null;
  /** What the list holds, one and many ('cluster', 'clusters'): the count says '3 clusters', the search box 'Search clusters'. */
  noun: [string, string];
  /** How many the list holds; none while loading. */
  total?: number;
  search: { value: string; onChange: (v: string) => void };
  /**
   * The load error when there is no data to show. A plan limit (`planLimit`) draws no card at all: the page's
   * UpgradePrompt above already says it, and a search box over nothing would only repeat it.
   */
  error?: { message: string; planLimit?: boolean } | null;
  children: ReactNode;
}) {
  if (error?.planLimit) return null;
  return (
    <Card withBorder radius="md" padding={0}>
      {empty ? (
        <EmptyState {...empty} />
      ) : (
        <>
          <Group justify="space-between" p="md">
            <SearchInput value={search.value} onChange={search.onChange} placeholder={`Search ${many}...`} label={`Search ${many}`} />
            {total !== undefined && (
              <Text size="xs" c="dimmed">
                {total} {total === 1 ? one : many}
              </Text>
            )}
          </Group>
          {error ? (
            <Text c="red" size="sm" p="md">
              {error.message}
            </Text>
          ) : (
            children
          )}
        </>
      )}
    </Card>
  );
}
