import { Badge, Group, Text } from '@mantine/core';
import type { SchemaInput, SchemaOutput } from '@gantry/contracts';
import { DataTable, type Column } from '../../../ui/DataTable';
import { formatDefault } from '../lib/labels';

const sensitiveBadge = (
  <Badge size="xs" variant="light" color="gray" radius="sm">
    sensitive
  </Badge>
);

/** Input parameters: a required input is marked with a leading asterisk (spec §2). */
export function InputsTable({ inputs, loading }: { inputs: SchemaInput[] | undefined; loading?: boolean }) {
  const columns: Column<SchemaInput>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (i) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" ff="monospace" fw={500} data-testid="input-name">
            {i.required ? `*${i.name}` : i.name}
          </Text>
          {i.sensitive && sensitiveBadge}
        </Group>
      ),
    },
    { key: 'type', header: 'Type', render: (i) => <Text size="sm">{i.type}</Text> },
    {
      key: 'default',
      header: 'Default',
      render: (i) => (
        <Text size="sm" ff="monospace" c={i.default === undefined ? 'dimmed' : undefined} style={{ wordBreak: 'break-all' }}>
          {formatDefault(i.default)}
        </Text>
      ),
    },
    {
      key: 'description',
      header: 'Description',
      render: (i) => (
        <Text size="sm" c={i.description ? undefined : 'dimmed'}>
          {i.description || '—'}
          {i.enum && (
            <Text span size="xs" c="dimmed" display="block">
              One of: {i.enum.map((v) => formatDefault(v)).join(', ')}
            </Text>
          )}
        </Text>
      ),
    },
  ];
  return <DataTable columns={columns} rows={inputs} rowKey={(i) => i.name} loading={loading} data-testid="component-inputs" />;
}

export function OutputsTable({ outputs, loading }: { outputs: SchemaOutput[] | undefined; loading?: boolean }) {
  const columns: Column<SchemaOutput>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (o) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" ff="monospace" fw={500}>
            {o.name}
          </Text>
          {o.sensitive && sensitiveBadge}
        </Group>
      ),
    },
    { key: 'type', header: 'Type', render: (o) => <Text size="sm">{o.type}</Text> },
    {
      key: 'description',
      header: 'Description',
      render: (o) => (
        <Text size="sm" c={o.description ? undefined : 'dimmed'}>
          {o.description || '—'}
        </Text>
      ),
    },
  ];
  return <DataTable columns={columns} rows={outputs} rowKey={(o) => o.name} loading={loading} data-testid="component-outputs" />;
}
