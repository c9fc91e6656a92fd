import { Badge, Group, Select, Text } from '@mantine/core';
import { versionLabel, type ComponentVersion } from '@gantry/contracts';

/** The version picker: versions newest first, 7-character versions, the latest one with a LATEST badge (spec §3, §9). */
export function VersionPicker({
  versions,
  value,
  onChange,
  loading,
}: {
  versions: ComponentVersion[];
  value: string | null;
  onChange: (buildId: string) => void;
  loading?: boolean;
}) {
  const byId = new Map(versions.map((v) => [v.id, v]));
  const selected = value ? byId.get(value) : undefined;
  return (
    <Group gap="xs" wrap="nowrap">
      <Select
        aria-label="Version"
        placeholder={loading ? 'Loading versions…' : 'Version'}
        w={190}
        data={versions.map((v) => ({ value: v.id, label: versionLabel(v.version) }))}
        value={value}
        onChange={(v) => v && onChange(v)}
        allowDeselect={false}
        maxDropdownHeight={300}
        disabled={versions.length === 0}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        renderOption={({ option }) => {
          const v = byId.get(option.value);
          return (
            <Group gap="xs" wrap="nowrap" justify="space-between" w="100%">
              <Text size="sm" ff="monospace">
                {option.label}
              </Text>
              <Group gap={6} wrap="nowrap">
                {v?.buildNumber != null && (
                  <Text size="xs" c="dimmed">
                    #{v.buildNumber}
                  </Text>
                )}
                {v?.isLatestVersion && (
                  <Badge size="xs" color="teal" variant="light">
                    LATEST
                  </Badge>
                )}
              </Group>
            </Group>
          );
        }}
        data-testid="version-picker"
      />
      {selected?.isLatestVersion && (
        <Badge color="teal" variant="light" data-testid="latest-badge">
          LATEST
        </Badge>
      )}
    </Group>
  );
}
