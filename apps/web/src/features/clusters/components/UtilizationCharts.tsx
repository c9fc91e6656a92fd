import { Card, Center, Group, RingProgress, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconChartDonut3 } from '@tabler/icons-react';
import type { ClusterStatus } from '@gantry/contracts';
import { ringValue, round2, utilizationColor } from '../lib/cluster-status';

function Ring({ label, value, testId }: { label: string; value: number; testId: string }) {
  const shown = round2(value);
  return (
    <Card withBorder radius="md" padding="lg">
      <Text size="xs" fw={600} tt="uppercase" c="dimmed">
        {label}
      </Text>
      <Center>
        <RingProgress
          size={160}
          thickness={14}
          roundCaps
          sections={[{ value: ringValue(shown), color: utilizationColor(shown), tooltip: `${label}: ${shown}%` }]}
          label={
            <Text ta="center" fz={19} fw={650} data-testid={testId}>
              {shown}%
            </Text>
          }
        />
      </Center>
      <Text size="xs" c="dimmed" ta="center">
        average over the nodes
      </Text>
    </Card>
  );
}

/** The pods' share (ready/running, pending, failed); 'No data available.' with no pods (spec §2). */
function PodsRing({ status }: { status: ClusterStatus }) {
  const p = status.podStatus;
  const total = p.totalPods;
  const pct = (n: number) => (total ? (n / total) * 100 : 0);
  const rows = [
    { label: 'Running', n: p.runningPods, color: 'teal' },
    { label: 'Pending', n: p.pendingPods, color: 'yellow' },
    { label: 'Failed', n: p.failedPods, color: 'red' },
    { label: 'Succeeded', n: p.succeededPods, color: 'gray' },
  ];
  return (
    <Card withBorder radius="md" padding="lg">
      <Text size="xs" fw={600} tt="uppercase" c="dimmed">
        Pods
      </Text>
      {total === 0 ? (
        <Center h={170}>
          <Text size="sm" c="dimmed">
            No data available.
          </Text>
        </Center>
      ) : (
        <Group justify="center" gap="lg" wrap="nowrap">
          <RingProgress
            size={150}
            thickness={14}
            sections={rows.filter((r) => r.n > 0).map((r) => ({ value: pct(r.n), color: r.color, tooltip: `${r.label}: ${r.n} (${round2(pct(r.n))}%)` }))}
            label={
              <Text ta="center" fz={22} fw={650}>
                {total}
              </Text>
            }
          />
          <Stack gap={4}>
            {rows.map((r) => (
              <Group key={r.label} gap={6} wrap="nowrap">
                <div style={{ width: 8, height: 8, borderRadius: 4, background: `var(--mantine-color-${r.color}-6)` }} />
                <Text size="xs">
                  {r.label} {r.n}
                </Text>
              </Group>
            ))}
          </Stack>
        </Group>
      )}
    </Card>
  );
}

/**
 * CPU and memory utilization as rings, rounded to 2 decimals (spec §9) — or, when the cluster has no
 * metrics server (`utilization` null), that said plainly instead of the spec's placeholder figures.
 */
export function UtilizationCharts({ status, loading }: { status: ClusterStatus | undefined; loading: boolean }) {
  if (loading) {
    return (
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={220} radius="md" />
        ))}
      </SimpleGrid>
    );
  }
  if (!status) return null;
  const u = status.nodesStatus.utilization;
  return (
    <SimpleGrid cols={{ base: 1, sm: u ? 3 : 2 }} spacing="lg">
      {u ? (
        <>
          <Ring label="CPU" value={u.averageCpuUtilization} testId="cpu-utilization" />
          <Ring label="Memory" value={u.averageMemoryUtilization} testId="memory-utilization" />
        </>
      ) : (
        <Card withBorder radius="md" padding="lg" data-testid="no-metrics">
          <Text size="xs" fw={600} tt="uppercase" c="dimmed">
            CPU and memory
          </Text>
          <Stack align="center" justify="center" gap="xs" h={170} ta="center">
            <ThemeIcon size={44} radius="xl" variant="light" color="gray">
              <IconChartDonut3 size={22} stroke={1.5} />
            </ThemeIcon>
            <Text size="sm" fw={600}>
              No metrics server in this cluster: CPU and memory are not available
            </Text>
            <Text size="xs" c="dimmed" maw={360}>
              Install metrics-server in the cluster and the utilization shows here.
            </Text>
          </Stack>
        </Card>
      )}
      <PodsRing status={status} />
    </SimpleGrid>
  );
}
