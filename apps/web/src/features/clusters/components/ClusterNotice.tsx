import { Card, Stack, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A whole-page notice in place of the cluster dashboard (trial expired, cluster not connected). */
export function ClusterNotice({
  icon,
  color,
  title,
  testId,
  children,
}: {
  icon: ReactNode;
  color: string;
  title: string;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Card withBorder radius="md" padding="xl" data-testid={testId}>
      <Stack align="center" gap="sm" py="lg" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color={color}>
          {icon}
        </ThemeIcon>
        <Title order={3} fw={650}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}
