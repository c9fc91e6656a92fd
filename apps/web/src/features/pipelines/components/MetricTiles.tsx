import { Card, Group, SimpleGrid, Skeleton, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

export type Tile = { label: string; value: ReactNode; icon: ReactNode; color: string; hint?: ReactNode };

/** A row of four number tiles (Successful builds, Failed builds, …). */
export function MetricTiles({ tiles, loading }: { tiles: Tile[]; loading?: boolean }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md" data-testid="metric-tiles">
      {tiles.map((t) => (
        <Card key={t.label} withBorder radius="md" padding="md" data-testid={`tile-${t.label}`}>
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <div style={{ minWidth: 0 }}>
              <Text size="xs" fw={600} c="dimmed" tt="uppercase" style={{ letterSpacing: 0.4 }}>
                {t.label}
              </Text>
              {loading ? (
                <Skeleton height={26} width={90} mt={8} radius="sm" />
              ) : (
                <Text fz={26} fw={700} mt={4} lh={1.2} data-testid="tile-value" style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {t.value}
                </Text>
              )}
              {t.hint && (
                <Text size="xs" c="dimmed" mt={4}>
                  {t.hint}
                </Text>
              )}
            </div>
            <ThemeIcon size={40} radius="md" variant="light" color={t.color}>
              {t.icon}
            </ThemeIcon>
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}
