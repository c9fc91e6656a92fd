import { Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { clusterMessages, type ClusterStatus } from '@gantry/contracts';
import { isReachable, podTone, TONE_COLOR } from '../lib/cluster-status';

/**
 * A list row's reachability (spec §2): nodes and pods when the status has podStatus, else NOT REACHABLE
 * with the server's reason in a tooltip. The pod figure is red when any failed, yellow when any is pending.
 */
export function Reachability({ status, reason }: { status: ClusterStatus | null | undefined; reason: string | null | undefined }) {
  if (!isReachable(status)) {
    return (
      <Tooltip label={reason || 'The cluster did not answer'} withArrow multiline maw={360} position="top-start">
        <Badge
          color="red"
          variant="light"
          radius="sm"
          leftSection={<IconPlugConnectedX size={12} />}
          data-testid="cluster-unreachable"
          style={{ cursor: 'help' }}
        >
          {clusterMessages.notReachable}
        </Badge>
      </Tooltip>
    );
  }
  const { podStatus: p, nodesStatus: n } = status;
  const tone = podTone(p);
  return (
    <Stack gap={2} data-testid="cluster-reachability">
      <Group gap={6} wrap="nowrap">
        <Badge color="teal" variant="dot" radius="sm" size="sm" style={{ flexShrink: 0 }} styles={{ label: { overflow: 'visible' } }}>
          Reachable
        </Badge>
        {status.kubernetesVersion && (
          <Text size="xs" c="dimmed" ff="monospace" truncate="end" title={status.kubernetesVersion} style={{ minWidth: 0 }}>
            {status.kubernetesVersion}
          </Text>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        <Text span size="xs" fw={600} c="var(--mantine-color-text)" data-testid="cluster-nodes">
          {n.readyNodes}/{n.totalNodes} nodes
        </Text>
        {' · '}
        <Text span size="xs" fw={600} c={tone === 'ok' ? 'var(--mantine-color-text)' : TONE_COLOR[tone]} data-testid="cluster-pods">
          {p.runningPods}/{p.totalPods} pods running
        </Text>
      </Text>
      {(p.failedPods > 0 || p.pendingPods > 0) && (
        <Text size="xs">
          {p.failedPods > 0 && <Text span size="xs" c="red">{`${p.failedPods} failed`}</Text>}
          {p.failedPods > 0 && p.pendingPods > 0 && (
            <Text span size="xs" c="dimmed">
              {' · '}
            </Text>
          )}
          {p.pendingPods > 0 && <Text span size="xs" c="yellow.7">{`${p.pendingPods} pending`}</Text>}
        </Text>
      )}
    </Stack>
  );
}
