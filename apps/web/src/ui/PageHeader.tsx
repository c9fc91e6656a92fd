import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '@mantine/hooks';
import { toastClearance } from './toast-clearance';

/** The title row of a page; also sets the browser tab title. */
export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  useDocumentTitle(`${title} · Gantry`);
  return (
    <Group ref={toastClearance} justify="space-between" align="flex-end" mb="lg" wrap="wrap" gap="md" data-testid="page-header">
      <Stack gap={4}>
        <Title order={2} fw={650} fz={26}>
          {title}
        </Title>
        {description && (
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        )}
      </Stack>
      {actions && <Group gap="sm">{actions}</Group>}
    </Group>
  );
}
