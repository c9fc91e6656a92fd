import { ActionIcon, Button, Checkbox, Group, NumberInput, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { FormApi } from '../../../ui/form';
import type { ServiceFormValues } from '../lib/service-form';

const TYPES = [
  { value: 'string', label: 'string' },
  { value: 'number', label: 'number' },
  { value: 'boolean', label: 'boolean' },
];
const MONO = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

/**
 * The service's schema: the container port, the inputs it takes (environment variables; required ones must be
 * given at deploy) and the outputs it offers. These become the details page's input and output tables.
 */
export function SchemaEditor({ form }: { form: FormApi<ServiceFormValues> }) {
  const { values } = form;
  return (
    <Stack gap="md">
      <NumberInput
        label="Container port"
        description="The port the service's Kubernetes Service forwards to"
        min={1}
        max={65535}
        // The input is 220 px wide, its description the row's width (in the input's width it broke after 'Kubernetes').
        styles={{ wrapper: { width: 220, maxWidth: '100%' } }}
        {...form.getInputProps('port')}
      />
      <Stack gap={6}>
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            Input parameters
          </Text>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconPlus size={14} />}
            onClick={() => form.insertListItem('inputs', { name: '', description: '', type: 'string', required: false, default: '', sensitive: false })}
          >
            Add input
          </Button>
        </Group>
        {values.inputs.length === 0 ? (
          <Text size="xs" c="dimmed">
            No inputs: the service takes no environment variables of its own.
          </Text>
        ) : (
          <Table verticalSpacing={6} horizontalSpacing="xs" data-testid="schema-inputs">
            <Table.Thead>
              <Table.Tr>
                {['Name', 'Type', 'Default', 'Description', 'Required', 'Sensitive', ''].map((h) => (
                  <Table.Th key={h}>
                    <Text size="xs" fw={600} tt="uppercase" c="dimmed">
                      {h}
                    </Text>
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {values.inputs.map((_, i) => (
                <Table.Tr key={i}>
                  <Table.Td>
                    <TextInput aria-label={`Input ${i + 1} name`} placeholder="DATABASE_URL" styles={MONO} {...form.getInputProps(`inputs.${i}.name`)} />
                  </Table.Td>
                  <Table.Td w={120}>
                    <Select aria-label={`Input ${i + 1} type`} data={TYPES} allowDeselect={false} {...form.getInputProps(`inputs.${i}.type`)} />
                  </Table.Td>
                  <Table.Td>
                    <TextInput aria-label={`Input ${i + 1} default`} placeholder="none" {...form.getInputProps(`inputs.${i}.default`)} />
                  </Table.Td>
                  <Table.Td>
                    <TextInput aria-label={`Input ${i + 1} description`} {...form.getInputProps(`inputs.${i}.description`)} />
                  </Table.Td>
                  <Table.Td ta="center">
                    <Checkbox aria-label={`Input ${i + 1} required`} {...form.getInputProps(`inputs.${i}.required`, { type: 'checkbox' })} />
                  </Table.Td>
                  <Table.Td ta="center">
                    <Checkbox aria-label={`Input ${i + 1} sensitive`} {...form.getInputProps(`inputs.${i}.sensitive`, { type: 'checkbox' })} />
                  </Table.Td>
                  <Table.Td w={40}>
                    <Tooltip label="Remove input" withArrow>
                      <ActionIcon variant="subtle" color="red" aria-label={`Remove input ${i + 1}`} onClick={() => form.removeListItem('inputs', i)}>
                        <IconTrash size={15} />
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <Stack gap={6}>
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            Output parameters
          </Text>
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => form.insertListItem('outputs', { name: '', description: '' })}>
            Add output
          </Button>
        </Group>
        {values.outputs.length === 0 ? (
          <Text size="xs" c="dimmed">
            No outputs described.
          </Text>
        ) : (
          values.outputs.map((_, i) => (
            <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
              <TextInput aria-label={`Output ${i + 1} name`} placeholder="url" styles={MONO} w={220} {...form.getInputProps(`outputs.${i}.name`)} />
              <TextInput
                aria-label={`Output ${i + 1} description`}
                placeholder="What it is"
                style={{ flex: 1 }}
                {...form.getInputProps(`outputs.${i}.description`)}
              />
              <ActionIcon variant="subtle" color="red" mt={6} aria-label={`Remove output ${i + 1}`} onClick={() => form.removeListItem('outputs', i)}>
                <IconTrash size={15} />
              </ActionIcon>
            </Group>
          ))
        )}
      </Stack>
    </Stack>
  );
}
