import { Badge, Text } from '@mantine/core';
import type { PodEvent } from '@gantry/contracts';
import { DataTable, type Column } from '../../../ui/DataTable';
import { RelativeTime } from '../../../ui/RelativeTime';

const columns: Column<PodEvent>[] = [
  {
    key: 'type',
    header: 'Type',
    width: 100,
    render: (e) => (
      <Badge color={e.type === 'Warning' ? 'yellow' : 'gray'} variant="light" radius="sm">
        {e.type}
      </Badge>
    ),
  },
  {
    key: 'reason',
    header: 'Reason',
    width: 150,
    render: (e) => (
      <Text size="sm" fw={500}>
        {e.reason}
      </Text>
    ),
  },
  {
    key: 'object',
    header: 'Object',
    width: 220,
    render: (e) => (
      <Text size="xs" ff="monospace" c="dimmed">
        {e.object}
      </Text>
    ),
  },
  { key: 'message', header: 'Message', render: (e) => <Text size="sm">{e.message}</Text> },
  { key: 'count', header: 'Count', width: 70, align: 'right', render: (e) => <Text size="sm">{e.count}</Text> },
  { key: 'firstSeen', header: 'First seen', width: 130, render: (e) => (e.firstSeen ? <RelativeTime date={e.firstSeen} /> : '—') },
  { key: 'lastSeen', header: 'Last seen', width: 130, render: (e) => (e.lastSeen ? <RelativeTime date={e.lastSeen} /> : '—') },
];

/** Events (spec §2, §3 pod event): message, type, count, first and last seen — newest first. */
export function EventsTab({ events, loading, error }: { events: PodEvent[] | undefined; loading: boolean; error: string | null }) {
  if (error)
    return (
      <Text c="red" size="sm" p="md">
        {error}
      </Text>
    );
  const rows = [...(events ?? [])].sort((a, b) => (b.lastSeen ?? '').localeCompare(a.lastSeen ?? ''));
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(e) => `${e.object}:${e.reason}:${e.firstSeen}:${e.message}`}
      loading={loading}
      emptyText="No events"
      data-testid="service-events"
    />
  );
}
