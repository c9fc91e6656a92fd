import { Box, Card, Center, Group, Progress, RingProgress, Stack, Text, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { barShares, dollars, monthLabel } from '../lib/cost';

export function ChartCard({ title, subtitle, children, testId }: { title: string; subtitle?: string; children: ReactNode; testId?: string }) {
  return (
    <Card withBorder radius="md" padding="lg" h="100%" data-testid={testId}>
      <Text fw={650}>{title}</Text>
      {subtitle && (
        <Text size="xs" c="dimmed" mb="md">
          {subtitle}
        </Text>
      )}
      {children}
    </Card>
  );
}

/** Cost per month as columns (oldest first), the current month highlighted. */
export function MonthlyBars({ months }: { months: { month: string; amount: number }[] }) {
  const rows = barShares(months);
  if (!rows.length) return <Empty />;
  return (
    <Group align="flex-end" gap={6} h={200} wrap="nowrap" data-testid="monthly-bars">
      {rows.map((m, i) => (
        <Tooltip key={m.month} label={`${monthLabel(m.month)}: ${dollars(m.amount)}`} withArrow>
          <Stack gap={4} align="center" style={{ flex: 1, minWidth: 0 }} h="100%" justify="flex-end">
            <Text size="10px" c="dimmed">
              {dollars(m.amount)}
            </Text>
            <Box
              w="100%"
              maw={38}
              h={`${Math.max(m.share * 0.75, m.amount > 0 ? 2 : 0.5)}%`}
              bg={i === rows.length - 1 ? 'indigo.6' : 'indigo.2'}
              style={{ borderRadius: '4px 4px 0 0' }}
            />
            <Text size="10px" c="dimmed" truncate="end">
              {monthLabel(m.month).split(' ')[0]}
            </Text>
          </Stack>
        </Tooltip>
      ))}
    </Group>
  );
}

/** Named amounts as horizontal bars, largest first. */
export function RankedBars({ rows, testId }: { rows: { key: string; label: ReactNode; amount: number }[]; testId?: string }) {
  if (!rows.length) return <Empty />;
  return (
    <Stack gap="sm" data-testid={testId}>
      {barShares(rows).map((r) => (
        <div key={r.key}>
          <Group justify="space-between" gap="xs" wrap="nowrap" mb={4}>
            <Text size="sm" truncate="end" style={{ minWidth: 0 }}>
              {r.label}
            </Text>
            <Text size="sm" fw={600}>
              {dollars(r.amount)}
            </Text>
          </Group>
          <Progress value={r.share} color="indigo" size="sm" radius="xl" />
        </div>
      ))}
    </Stack>
  );
}

/** EC2 and RDS within all services, as a ring (labels hidden at 0, spec §9). */
export function ServiceRing({ ec2, rds, all }: { ec2: number; rds: number; all: number }) {
  const pct = (n: number) => (all > 0 ? (n / all) * 100 : 0);
  const other = Math.max(0, all - ec2 - rds);
  const parts = [
    { label: 'EC2', n: ec2, color: 'orange' },
    { label: 'RDS', n: rds, color: 'blue' },
    { label: 'Other', n: other, color: 'gray.4' },
  ];
  return (
    <Stack align="center" gap="md" data-testid="service-ring">
      <RingProgress
        size={160}
        thickness={18}
        sections={parts
          .filter((p) => p.n > 0)
          .map((p) => ({ value: pct(p.n), color: p.color, tooltip: `${p.label}: ${dollars(p.n)} (${Math.round(pct(p.n))}%)` }))}
        label={
          <Center>
            <Stack gap={0} align="center">
              <Text size="xs" c="dimmed">
                All services
              </Text>
              <Text fw={700} fz={18}>
                {dollars(all)}
              </Text>
            </Stack>
          </Center>
        }
      />
      <Group gap="md" justify="center">
        {parts.map((p) => (
          <Group key={p.label} gap={6} wrap="nowrap">
            <Box w={10} h={10} bg={p.color} style={{ borderRadius: 5 }} />
            <Text size="sm">{p.label}</Text>
            <Text size="sm" fw={600} data-testid={`service-${p.label.split(' ')[0]!.toLowerCase()}`}>
              {dollars(p.n)}
            </Text>
          </Group>
        ))}
      </Group>
    </Stack>
  );
}

function Empty() {
  return (
    <Center h={120}>
      <Text size="sm" c="dimmed">
        No data available
      </Text>
    </Center>
  );
}
