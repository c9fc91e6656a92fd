import { Badge, Card, Group, Text } from '@mantine/core';
import type { ServiceSchema } from '@gantry/contracts';
import { DataTable, type Column } from '../../../ui/DataTable';

type Input = ServiceSchema['inputs'][number];
type Output = ServiceSchema['outputs'][number];

const inputColumns: Column<Input>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (i) => (
      <Group gap={6} wrap="nowrap">
        <Text size="sm" ff="monospace" fw={600}>
          {i.name}
        </Text>
        {i.required && (
          <Badge size="xs" color="red" variant="light" radius="sm">
            required
          </Badge>
        )}
        {i.sensitive && (
          <Badge size="xs" color="gray" variant="light" radius="sm">
            sensitive
          </Badge>
        )}
      </Group>
    ),
  },
  {
    key: 'type',
    header: 'Type',
    width: 100,
    render: (i) => (
      <Text size="sm" ff="monospace">
        {i.type}
      </Text>
    ),
  },
  {
    key: 'default',
    header: 'Default',
    render: (i) => (
      <Text size="sm" ff="monospace" c={i.default ? undefined : 'dimmed'}>
        {i.default ?? '—'}
      </Text>
    ),
  },
  {
    key: 'description',
    header: 'Description',
    render: (i) => (
      <Text size="sm" c="dimmed">
        {i.description || '—'}
      </Text>
    ),
  },
];
const outputColumns: Column<Output>[] = [
  {
    key: 'name',
    header: 'Name',
    width: 240,
    render: (o) => (
      <Text size="sm" ff="monospace" fw={600}>
        {o.name}
      </Text>
    ),
  },
  {
    key: 'description',
    header: 'Description',
    render: (o) => (
      <Text size="sm" c="dimmed">
        {o.description || '—'}
      </Text>
    ),
  },
];

/** The service's input and output parameter tables (spec §2), from its schema. */
export function ParameterTables({ schema }: { schema: ServiceSchema }) {
  return (
    <>
      <Card withBorder radius="md" padding={0}>
        <Group justify="space-between" p="md" pb={0}>
          <Text fw={600}>Input parameters</Text>
          <Text size="xs" c="dimmed">
            Environment variables the service takes · container port {schema.port}
          </Text>
        </Group>
        <DataTable columns={inputColumns} rows={schema.inputs} rowKey={(i) => i.name} data-testid="input-parameters" />
      </Card>
      <Card withBorder radius="md" padding={0}>
        <Text fw={600} p="md" pb={0}>
          Output parameters
        </Text>
        <DataTable columns={outputColumns} rows={schema.outputs} rowKey={(o) => o.name} data-testid="output-parameters" />
      </Card>
    </>
  );
}
