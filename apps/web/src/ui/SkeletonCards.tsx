import { Card, Group, Skeleton, Stack } from '@mantine/core';
import { CardGrid } from './CardGrid';

/** Placeholder cards while a card list loads. */
export function SkeletonCards({ count = 6, max = 3 }: { count?: number; max?: number }) {
  return (
    <CardGrid max={max} data-testid="skeleton-cards">
      {Array.from({ length: count }, (_, i) => (
        <Card key={i} withBorder radius="md" padding="lg">
          <Stack gap="sm">
            <Group gap="sm">
              <Skeleton height={36} circle />
              <Skeleton height={14} width="50%" radius="sm" />
            </Group>
            <Skeleton height={10} radius="sm" />
            <Skeleton height={10} width="70%" radius="sm" />
            <Skeleton height={24} mt="sm" radius="sm" />
          </Stack>
        </Card>
      ))}
    </CardGrid>
  );
}
