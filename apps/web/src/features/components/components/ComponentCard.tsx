import { ActionIcon, Anchor, Card, Group, Menu, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBox, IconDots, IconPencil, IconShare, IconTrash, IconWorld } from '@tabler/icons-react';
import { Link } from 'react-router';
import { truncateDescription, type Component } from '@gantry/contracts';
import { ComponentBadges } from './ComponentBadges';

/** A component card (spec §2): name, type, provider, IaC tool, cut description, provenance, and the Edit/Delete menu of own components. */
export function ComponentCard({ component: c, withMenu, onDelete }: { component: Component; withMenu: boolean; onDelete: () => void }) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid="component-card" style={{ display: 'flex', flexDirection: 'column' }}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <ThemeIcon size={38} radius="md" variant="light" color={c.isPublic ? 'teal' : 'indigo'}>
            {c.isPublic ? <IconWorld size={20} stroke={1.6} /> : <IconBox size={20} stroke={1.6} />}
          </ThemeIcon>
          <Anchor component={Link} to={`/components/${c.id}`} fw={650} c="dark" truncate="end" data-testid="component-name">
            {c.name}
          </Anchor>
        </Group>
        {withMenu && (
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions of component ${c.name}`}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item component={Link} to={`/components/${c.id}/edit`} leftSection={<IconPencil size={15} />}>
                Edit
              </Menu.Item>
              <Menu.Item color="red" leftSection={<IconTrash size={15} />} onClick={onDelete}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      <Stack gap="sm" mt="md" style={{ flex: 1 }}>
        <ComponentBadges component={c} size="xs" />
        <Text size="sm" c="dimmed" style={{ wordBreak: 'break-word' }} data-testid="component-description">
          {truncateDescription(c.description)}
        </Text>
      </Stack>
      {c.providedBy && (
        <Group gap={6} mt="md" wrap="nowrap">
          <IconShare size={14} color="var(--mantine-color-dimmed)" />
          <Text size="xs" c="dimmed" data-testid="component-provided-by">
            {c.providedBy}
          </Text>
        </Group>
      )}
    </Card>
  );
}
