import { Card, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { SearchInput } from './SearchInput';

/**
 * The card of a list page: its empty state, or a search box with the count above the table — and
 * the list's error in place of the table when nothing was loaded.
 */
export function SearchableTableCard({
  empty,
  search,
  count,
  error,
  children,
}: {
  /** Shown instead of everything else when the list has no rows at all. */
  empty: ReactNode | null;
  search: { value: string; onChange: (v: string) => void; placeholder: string; label: string };
  /** '3 clusters'; none while loading. */
  count?: string | null;
  /** The load error when there is no data to show; `dimmed` for a plan limit rather than a failure. */
  error?: { message: string; dimmed?: boolean } | null;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding={0}>
      {empty ?? (
        <>
          <Group justify="space-between" p="md">
            <SearchInput value={search.value} onChange={search.onChange} placeholder={search.placeholder} label={search.label} />
            {count && (
              <Text size="xs" c="dimmed">
                {count}
              </Text>
            )}
          </Group>
          {error ? (
            <Text c={error.dimmed ? 'dimmed' : 'red'} size="sm" p="md">
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
