import { Card, ScrollArea, Stack, Tabs, Text, UnstyledButton, Group, Badge } from '@mantine/core';
import { useMemo, useState } from 'react';
import { componentMatches, type Component, type Stage } from '@gantry/contracts';
import { SearchInput } from '../../../ui/SearchInput';
import { useComponents } from '../../components';
import { toolLabel } from '../lib/labels';

/**
 * The searchable list of components beside the resources (spec §2): two tabs, the second a filter
 * to those that fit the environment (same provider and IaC tool). Choosing one opens the modal.
 */
export function ComponentSideList({ projectId, stage, onPick }: { projectId: string; stage: Stage; onPick: (c: Component) => void }) {
  const components = useComponents(projectId);
  const [search, setSearch] = useState('');
  const [tab, setTab] = useState<string | null>('all');
  const shown = useMemo(
    () =>
      (components.data ?? [])
        .filter((c) => tab !== 'compatible' || (c.cloudProvider === stage.cloudProvider && c.infrastructureAsCodeTool === stage.infrastructureAsCodeTool))
        .filter((c) => componentMatches(c, search))
        .sort((a, b) => a.name.localeCompare(b.name)),
    [components.data, tab, search, stage],
  );
  return (
    <Card withBorder radius="md" padding="md" data-testid="component-side-list">
      <Text fw={650} mb="xs">
        Components
      </Text>
      <SearchInput value={search} onChange={setSearch} placeholder="Search components..." label="Search components" w="100%" />
      <Tabs value={tab} onChange={setTab} mt="sm">
        <Tabs.List grow>
          <Tabs.Tab value="all">All</Tabs.Tab>
          <Tabs.Tab value="compatible">Compatible</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <ScrollArea.Autosize mah={420} mt="xs">
        <Stack gap={4}>
          {components.isPending && (
            <Text size="sm" c="dimmed">
              Loading…
            </Text>
          )}
          {components.isSuccess && !shown.length && (
            <Text size="sm" c="dimmed" py="sm">
              No data available
            </Text>
          )}
          {shown.map((c) => (
            <UnstyledButton key={c.id} onClick={() => onPick(c)} p="xs" style={{ borderRadius: 8 }} className="gantry-hover" aria-label={`Add ${c.name}`}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <div style={{ minWidth: 0 }}>
                  <Text size="sm" fw={600} truncate="end">
                    {c.name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate="end">
                    {c.type} · {toolLabel(c.infrastructureAsCodeTool)}
                  </Text>
                </div>
                {c.isPublic && (
                  <Badge size="xs" variant="light" color="teal">
                    vendor
                  </Badge>
                )}
              </Group>
            </UnstyledButton>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Card>
  );
}
