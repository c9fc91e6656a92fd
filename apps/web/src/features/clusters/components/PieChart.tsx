import { Box, Card, Center, Group, Stack, Text } from '@mantine/core';
import { pieLabel, pieShares, type PieSlice } from '../lib/cluster-status';

const SIZE = 180;
const R = 70;
const C = SIZE / 2;

const point = (angle: number, r: number) => [C + r * Math.sin(angle), C - r * Math.cos(angle)] as const;
/** The labels' font: 11 px, bold; a character of it is at most about this wide (DejaVu Sans Bold, the widest of the usual sans fonts), a line this high. */
const LABEL_PX = 11;
const CHAR_PX = 7.6;
const LINE_PX = 14;

/**
 * Where a slice's label is centred: at the middle of its slice, moved in along its line so that the whole label lies
 * on the pie. White on a slice, a label reaching past the pie's edge lost its ends on the page ('iled 33.33%' for
 * 'Failed 33.33%' on a third at the left).
 */
function labelX(x: number, y: number, label: string) {
  const half = (label.length * CHAR_PX) / 2;
  const dy = Math.abs(y - C) + LINE_PX / 2;
  const room = Math.sqrt(Math.max(0, R * R - dy * dy)) - 3;
  if (room <= half) return C;
  return Math.min(Math.max(x, C - room + half), C + room - half);
}

function arc(start: number, end: number) {
  if (end - start >= 2 * Math.PI - 1e-9) return `M ${C} ${C - R} A ${R} ${R} 0 1 1 ${C - 0.01} ${C - R} Z`;
  const [x1, y1] = point(start, R);
  const [x2, y2] = point(end, R);
  return `M ${C} ${C} L ${x1} ${y1} A ${R} ${R} 0 ${end - start > Math.PI ? 1 : 0} 1 ${x2} ${y2} Z`;
}

/**
 * A pie of shares with the spec's label rule (§2): no label at 0, only the percentage at 10 or below, the name and
 * percentage above; 'No data available.' when there is nothing to share.
 */
export function PieChart({ title, slices, empty, testId }: { title: string; slices: PieSlice[]; empty: boolean; testId: string }) {
  const shares = pieShares(slices);
  let angle = 0;
  const drawn = shares
    .filter((s) => s.percent > 0)
    .map((s) => {
      const start = angle;
      angle += (s.percent / 100) * 2 * Math.PI;
      const [lx, ly] = point((start + angle) / 2, R * 0.62);
      const label = pieLabel(s.name, s.percent);
      return { ...s, d: arc(start, angle), lx: label ? labelX(lx, ly, label) : lx, ly, label };
    });
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId}>
      <Text size="xs" fw={600} tt="uppercase" c="dimmed">
        {title}
      </Text>
      {empty ? (
        <Center h={190}>
          <Text size="sm" c="dimmed">
            No data available.
          </Text>
        </Center>
      ) : (
        <Stack align="center" gap={6}>
          <svg width={SIZE} height={SIZE} viewBox={`0 0 ${SIZE} ${SIZE}`} role="img" aria-label={title}>
            {drawn.map((s) => (
              <path key={s.name} d={s.d} fill={`var(--mantine-color-${s.color}-5)`} stroke="var(--mantine-color-body)" strokeWidth={2}>
                <title>{`${s.name}: ${s.value} (${s.percent}%)`}</title>
              </path>
            ))}
            {drawn.map(
              (s) =>
                s.label && (
                  <text
                    key={`${s.name}-label`}
                    x={s.lx}
                    y={s.ly}
                    textAnchor="middle"
                    dominantBaseline="middle"
                    fontSize={LABEL_PX}
                    fontWeight={600}
                    fill="white"
                    data-testid="pie-label"
                  >
                    {s.label}
                  </text>
                ),
            )}
          </svg>
          <Group gap="md" justify="center">
            {shares.map((s) => (
              <Group key={s.name} gap={6} wrap="nowrap">
                <Box w={8} h={8} style={{ borderRadius: 4, background: `var(--mantine-color-${s.color}-5)` }} />
                <Text size="xs">
                  {s.name} {s.value}
                </Text>
              </Group>
            ))}
          </Group>
        </Stack>
      )}
    </Card>
  );
}
