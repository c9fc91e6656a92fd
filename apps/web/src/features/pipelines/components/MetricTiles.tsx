import { Card, Group, Skeleton, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';
import { CardGrid } from '../../../ui/CardGrid';

/** `unit`: said after the value, smaller and never on a line of its own ('0.01/500 mins'). */
export type Tile = { label: string; value: ReactNode; unit?: string; icon: ReactNode; color: string; hint?: ReactNode };

/**
 * A row of four number tiles (Successful builds, Failed builds, …). The label shares its line with the icon and
 * the value has the tile's whole width below them: beside the icon a value such as '0.01/500 mins' broke its unit
 * onto a line of its own at 1366 px.
 */
export function MetricTiles({ tiles, loading }: { tiles: Tile[]; loading?: boolean }) {
  return (
    // Columns from the grid's own width: the window's lg breakpoint gave four 204 px tiles beside the side menu at
    // 1280 px, where 'Successful builds' and 'Build minutes spent' wrapped beside their icon (and still did in 222 px
    // tiles): a tile needs 240 px, four in a row from 1020 px, else two rows of two.
    <CardGrid minWidth={240} max={4} even data-testid="metric-tiles">
      {tiles.map((t) => (
        <Card key={t.label} withBorder radius="md" padding="md" data-testid={`tile-${t.label}`}>
          <Group justify="space-between" align="center" wrap="nowrap" gap="xs">
            <Text size="xs" fw={600} c="dimmed" tt="uppercase" style={{ letterSpacing: 0.4 }}>
              {t.label}
            </Text>
            <ThemeIcon size={32} radius="md" variant="light" color={t.color} style={{ flexShrink: 0 }}>
              {t.icon}
            </ThemeIcon>
          </Group>
          {loading ? (
            <Skeleton height={26} width={90} mt={8} radius="sm" />
          ) : (
            <Text fz={26} fw={700} mt={6} lh={1.2} data-testid="tile-value" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
              {t.value}
              {t.unit && (
                <Text span fz="sm" fw={600} c="dimmed">
                  {` ${t.unit}`}
                </Text>
              )}
            </Text>
          )}
          {t.hint && (
            <Text size="xs" c="dimmed" mt={4}>
              {t.hint}
            </Text>
          )}
        </Card>
      ))}
    </CardGrid>
  );
}
