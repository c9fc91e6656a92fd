import { Card, Divider, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled card grouping the fields of a form. */
export function FormSection({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={4} fz="md" fw={650}>
        {title}
      </Title>
      {description && (
        <Text size="sm" c="dimmed" mt={2}>
          {description}
        </Text>
      )}
      <Divider my="md" />
      <Stack gap="md">{children}</Stack>
    </Card>
  );
}
