import { Card, Group, Progress, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { autoScalingFrom, type DeploymentStatus } from '@gantry/contracts';

function Meter({ label, value, of, max, unit, testId }: { label: string; value: number | null; of: number; max: number; unit: string; testId: string }) {
  const pct = value === null || !max ? 0 : Math.min(100, (value / max) * 100);
  return (
    <Card withBorder radius="md" padding="lg">
      <Text size="xs" fw={600} tt="uppercase" c="dimmed">
        {label}
      </Text>
      <Text fz={24} fw={650} data-testid={testId}>
        {value === null ? 'n/a' : `${Math.round(value * 100) / 100} ${unit}`}
      </Text>
      <Progress value={pct} color={pct >= 90 ? 'red' : pct >= 70 ? 'yellow' : 'teal'} size="sm" radius="sm" mt={6} />
      <Text size="xs" c="dimmed" mt={6}>
        average per pod · requests {of} {unit}, limit {max} {unit}
      </Text>
    </Card>
  );
}

/**
 * Insights (spec §3 deployment status): the pods' average CPU and memory against the requests and limits in force,
 * replicas and the autoscaler — or, without a metrics server, that said instead of figures.
 */
export function InsightsTab({ status, loading }: { status: DeploymentStatus | undefined; loading: boolean }) {
  if (loading || !status) return <Skeleton height={180} radius="md" />;
  const a = autoScalingFrom(status.configurations);
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Meter label="CPU" value={status.usage?.averageCpu ?? null} of={a.cpu} max={a.maxCpu} unit="m" testId="insights-cpu" />
        <Meter label="Memory" value={status.usage?.averageMemory ?? null} of={a.memory} max={a.maxMemory} unit="Mi" testId="insights-memory" />
      </SimpleGrid>
      {!status.usage && (
        <Text size="xs" c="dimmed">
          The cluster has no metrics server: CPU and memory use are not available.
        </Text>
      )}
      <Card withBorder radius="md" padding="lg">
        <Group gap="xl">
          <Stack gap={2}>
            <Text size="xs" fw={600} tt="uppercase" c="dimmed">
              Replicas
            </Text>
            <Text fw={600} data-testid="insights-replicas">
              {status.replicas ? `${status.replicas.ready} ready of ${status.replicas.desired}` : 'n/a'}
            </Text>
          </Stack>
          <Stack gap={2}>
            <Text size="xs" fw={600} tt="uppercase" c="dimmed">
              Autoscaler
            </Text>
            <Text fw={600}>
              {status.autoScaling ? `${status.autoScaling.currentReplicas} pods, ${status.autoScaling.minReplicas}–${status.autoScaling.maxReplicas}` : 'n/a'}
            </Text>
          </Stack>
          <Stack gap={2}>
            <Text size="xs" fw={600} tt="uppercase" c="dimmed">
              Scale at
            </Text>
            <Text fw={600}>
              CPU {a.cpuUtilization}% · memory {a.memoryUtilization}%
            </Text>
          </Stack>
        </Group>
      </Card>
    </Stack>
  );
}
