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
      {/* Scrolls down only, and its rows are the card's width: as a table (Mantine's default) the content grew to a long
          name's whole width, and the row's end (its vendor badge) was cut off by the card. */}
      <ScrollArea.Autosize mah={420} mt="xs" scrollbars="y" styles={{ content: { display: 'block', minWidth: 0 } }}>
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
                {/* A long name gives way, with its whole text as the title; the vendor badge never does ('VEND…'). */}
                <div style={{ minWidth: 0, flex: 1 }}>
                  <Text size="sm" fw={600} truncate="end" title={c.name}>
                    {c.name}
                  </Text>
                  <Text size="xs" c="dimmed" truncate="end">
                    {c.type} · {toolLabel(c.infrastructureAsCodeTool)}
                  </Text>
                  {/* a component shared from another project says so: beside the project's own of the same name it read the same */}
                  {c.providedBy && (
                    <Text size="xs" c="dimmed" truncate="end" title={c.providedBy} data-testid="side-list-provided-by">
                      {c.providedBy}
                    </Text>
                  )}
                </div>
                {c.isPublic && (
                  <Badge size="xs" variant="light" color="teal" style={{ flexShrink: 0 }}>
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
