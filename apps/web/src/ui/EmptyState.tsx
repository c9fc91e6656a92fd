import { Stack, Text, ThemeIcon, Title, type MantineColor } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  /** The icon alone (e.g. a Tabler icon of size 28); it is drawn in a round light badge of `color` (gray by default). */
  icon?: ReactNode;
  color?: MantineColor;
  action?: ReactNode;
  compact?: boolean;
}

/** The empty state of a list or a panel: an icon, a title, an optional description and action. */
export function EmptyState({ title, description, icon, color = 'gray', action, compact }: EmptyStateProps) {
  return (
    <Stack align="center" justify="center" gap="xs" py={compact ? 'lg' : 48} px="md" ta="center">
      <ThemeIcon size={compact ? 40 : 56} radius="xl" variant="light" color={color}>
        {icon ?? <IconInbox size={compact ? 20 : 28} stroke={1.5} />}
      </ThemeIcon>
      <Title order={compact ? 5 : 4} fw={600}>
        {title}
      </Title>
      {description && (
        <Text c="dimmed" size="sm" maw={420}>
          {description}
        </Text>
      )}
      {action && <div style={{ marginTop: 8 }}>{action}</div>}
    </Stack>
  );
}
