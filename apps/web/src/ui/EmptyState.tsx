import { Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  action?: ReactNode;
  compact?: boolean;
}

/** The empty state of a list or a panel: an icon, a title, an optional description and action. */
export function EmptyState({ title, description, icon, action, compact }: EmptyStateProps) {
  return (
    <Stack align="center" justify="center" gap="xs" py={compact ? 'lg' : 48} px="md" ta="center">
      <ThemeIcon size={compact ? 40 : 56} radius="xl" variant="light" color="gray">
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
