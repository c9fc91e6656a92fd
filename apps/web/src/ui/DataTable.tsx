import { Skeleton, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export const NO_DATA = 'No data available';

export interface Column<T> {
  key: string;
  header: ReactNode;
  render: (row: T) => ReactNode;
  width?: number | string;
  align?: 'left' | 'right' | 'center';
}

export interface DataTableProps<T> {
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string;
  loading?: boolean;
  /** Text of the empty table; 'No data available' unless told (spec §8). */
  emptyText?: ReactNode;
  onRowClick?: (row: T) => void;
  'data-testid'?: string;
}

/** A table with 3 skeleton rows while loading and an empty text when there is nothing. */
export function DataTable<T>({ columns, rows, rowKey, loading, emptyText = NO_DATA, onRowClick, ...rest }: DataTableProps<T>) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover={Boolean(onRowClick)} data-testid={rest['data-testid']}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key} w={c.width} ta={c.align}>
                <Text size="xs" fw={600} tt="uppercase" c="dimmed">
                  {c.header}
                </Text>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading ? (
            [0, 1, 2].map((i) => (
              <Table.Tr key={`skeleton-${i}`} data-testid="table-skeleton-row">
                {columns.map((c) => (
                  <Table.Td key={c.key}>
                    <Skeleton height={14} radius="sm" width={i === 1 ? '60%' : '80%'} />
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          ) : rows && rows.length > 0 ? (
            rows.map((row) => (
              <Table.Tr key={rowKey(row)} onClick={onRowClick ? () => onRowClick(row) : undefined} style={onRowClick ? { cursor: 'pointer' } : undefined}>
                {columns.map((c) => (
                  <Table.Td key={c.key} ta={c.align}>
                    {c.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          ) : (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text ta="center" c="dimmed" py="lg" size="sm">
                  {emptyText}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
