import { Card, Center, RingProgress, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { CardGrid, FIGURE_MIN_WIDTH } from '../../../ui/CardGrid';
import { IconChartDonut3 } from '@tabler/icons-react';
import type { ClusterStatus } from '@gantry/contracts';
import { deploymentSlices, podSlices, ringValue, round2, utilizationColor } from '../lib/cluster-status';
import { PieChart } from './PieChart';

/**
 * A utilization ring: its arc is as long as its share. Butt ends, not round ones: a round cap adds half the ring's
 * thickness at each end (about 3 % of the circle), so at 1–2 % the arc drew as a round dot at the top, not a share.
 */
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

/**
 * The dashboard's four charts (spec §2): CPU and memory utilization as rings, rounded to 2 decimals (§9) — or,
 * when the cluster has no metrics server (`utilization` null), that said plainly instead of the spec's placeholder
 * figures —, and the Deployments (healthy vs failed) and Pods (ready, failed, pending) pies; with no pods the
 * pies say 'No data available.'.
 */
export function UtilizationCharts({ status, loading }: { status: ClusterStatus | undefined; loading: boolean }) {
  if (loading) {
    return (
      <CardGrid minWidth={FIGURE_MIN_WIDTH} max={4}>
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} height={220} radius="md" />
        ))}
      </CardGrid>
    );
  }
  if (!status) return null;
  const u = status.nodesStatus.utilization;
  const noPods = status.podStatus.totalPods === 0;
  return (
    <CardGrid minWidth={FIGURE_MIN_WIDTH} max={u ? 4 : 3}>
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
      <PieChart title="Deployments" slices={deploymentSlices(status.deploymentsStatus)} empty={noPods} testId="deployments-chart" />
      <PieChart title="Pods" slices={podSlices(status.podStatus)} empty={noPods} testId="pods-chart" />
    </CardGrid>
  );
}
