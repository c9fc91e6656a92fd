import { ActionIcon, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ChangeEvent } from 'react';

export type EnvRow = { id: number; key: string; value: string; sensitive: boolean };
export const KEY_AND_VALUE_MESSAGE = 'Please enter key and value';

let nextId = 1;
export const newEnvRow = (v?: Partial<EnvRow>): EnvRow => ({ id: nextId++, key: '', value: '', sensitive: false, ...v });

/** Rows of key, value and sensitive; a new row is refused while one is still empty (spec §5). */
export function EnvironmentVariablesField({
  rows,
  onChange,
  errors,
  message,
  onMessage,
}: {
  rows: EnvRow[];
  onChange: (rows: EnvRow[]) => void;
  errors: Record<string, string | undefined>;
  message?: string | null;
  onMessage: (m: string | null) => void;
}) {
  const update = (id: number, patch: Partial<EnvRow>) => {
    onMessage(null);
    onChange(rows.map((r) => (r.id === id ? { ...r, ...patch } : r)));
  };
  const add = () => {
    if (rows.some((r) => !r.key.trim() || !r.value)) {
      onMessage(KEY_AND_VALUE_MESSAGE);
      return;
    }
    onMessage(null);
    onChange([...rows, newEnvRow()]);
  };

  return (
    <Stack gap="xs" data-testid="environment-variables">
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          No environment variables. Builds also get GANTRY_PIPELINE_ID, GANTRY_PIPELINE_NAME, GANTRY_PIPELINE_EXECUTION_ID, GANTRY_BRANCH and GANTRY_COMMIT.
        </Text>
      )}
      {rows.map((r, i) => {
        const valueProps = {
          'aria-label': `Value ${i + 1}`,
          placeholder: 'Value',
          value: r.value,
          onChange: (e: ChangeEvent<HTMLInputElement>) => update(r.id, { value: e.currentTarget.value }),
          error: errors[`environmentVariables.${i}.value`],
          style: { flex: 1 },
        };
        return (
          <Group key={r.id} gap="sm" align="flex-start" wrap="nowrap">
            <TextInput
              aria-label={`Key ${i + 1}`}
              placeholder="KEY"
              value={r.key}
              onChange={(e) => update(r.id, { key: e.currentTarget.value })}
              error={errors[`environmentVariables.${i}.key`]}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              style={{ flex: 1 }}
            />
            {r.sensitive ? <PasswordInput {...valueProps} /> : <TextInput {...valueProps} />}
            <Checkbox label="Sensitive" checked={r.sensitive} onChange={(e) => update(r.id, { sensitive: e.currentTarget.checked })} mt={8} />
            <Tooltip label="Remove variable" withArrow>
              <ActionIcon
                variant="subtle"
                color="red"
                mt={4}
                aria-label={`Remove variable ${i + 1}`}
                onClick={() => {
                  onMessage(null);
                  onChange(rows.filter((x) => x.id !== r.id));
                }}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        );
      })}
      {message && (
        <Text size="sm" c="red" role="alert">
          {message}
        </Text>
      )}
      <Group>
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={add}>
          Add variable
        </Button>
      </Group>
    </Stack>
  );
}
