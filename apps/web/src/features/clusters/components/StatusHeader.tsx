import { Anchor, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { ClusterStatus } from '@gantry/contracts';
import { podCountColor } from '../lib/cluster-status';
import { CardGrid } from '../../../ui/CardGrid';
import { toastClearance } from '../../../ui/toast-clearance';

function Figure({
  label,
  value,
  color,
  loading,
  testId,
  hint,
}: {
  label: string;
  value: ReactNode;
  color?: string;
  loading: boolean;
  testId: string;
  hint?: ReactNode;
}) {
  return (
    <Stack gap={4} style={{ minWidth: 0 }}>
      <Text size="xs" fw={600} tt="uppercase" c="dimmed">
        {label}
      </Text>
      {loading ? (
        <Skeleton height={26} width="60%" radius="sm" />
      ) : (
        <Text fz={24} fw={650} lh={1.1} c={color} data-testid={testId}>
          {value}
        </Text>
      )}
      {hint && !loading && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The dashboard's header card (spec §2): nodes, running / pending / failed pods (pending yellow and
 * failed red above 0), deployments, the Kubernetes API URL (an external link, or n/a) and version.
 * Without a status (loading, or an error) the figures stay empty.
 */
export function StatusHeader({ status, loading, endpoint }: { status: ClusterStatus | undefined; loading: boolean; endpoint: string | undefined }) {
  const p = status?.podStatus;
  const n = status?.nodesStatus;
  const d = status?.deploymentsStatus;
  const dash = '—';
  const url = status?.endpoint || endpoint;
  return (
    <Card ref={toastClearance} withBorder radius="md" padding="lg" data-testid="cluster-header">
      {/* A figure needs 120 px (its label, 'available / total'): five in a row from 680 px of the card's own width. */}
      <CardGrid minWidth={120} max={5}>
        <Figure
          label="Total Nodes"
          testId="nodes"
          loading={loading}
          value={n ? `${n.readyNodes}/${n.totalNodes}` : dash}
          hint={n ? 'ready / total' : undefined}
          color={n && n.readyNodes < n.totalNodes ? 'yellow.7' : undefined}
        />
        <Figure label="Running Pods" testId="running-pods" loading={loading} value={p ? p.runningPods : dash} hint={p ? `of ${p.totalPods} pods` : undefined} />
        <Figure
          label="Pending Pods"
          testId="pending-pods"
          loading={loading}
          value={p ? p.pendingPods : dash}
          color={p ? podCountColor('pending', p.pendingPods) : undefined}
        />
        <Figure
          label="Failed Pods"
          testId="failed-pods"
          loading={loading}
          value={p ? p.failedPods : dash}
          color={p ? podCountColor('failed', p.failedPods) : undefined}
        />
        <Figure
          label="Deployments"
          testId="deployments"
          loading={loading}
          value={d ? `${d.available}/${d.total}` : dash}
          hint={d ? 'available / total' : undefined}
          color={d && d.available < d.total ? 'yellow.7' : undefined}
        />
      </CardGrid>
      <Group gap="xl" mt="lg" pt="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
          <Text size="xs" fw={600} tt="uppercase" c="dimmed">
            Kubernetes API URL
          </Text>
          {loading && !url ? (
            <Skeleton height={14} width={200} radius="sm" />
          ) : url ? (
            <Anchor href={url} target="_blank" rel="noreferrer" size="sm" ff="monospace" data-testid="api-url">
              <Group gap={4} wrap="nowrap">
                {url}
                <IconExternalLink size={13} />
              </Group>
            </Anchor>
          ) : (
            <Text size="sm" c="dimmed" data-testid="api-url">
              n/a
            </Text>
          )}
        </Group>
        <Group gap={8} wrap="nowrap">
          <Text size="xs" fw={600} tt="uppercase" c="dimmed">
            Version
          </Text>
          {loading ? (
            <Skeleton height={14} width={70} radius="sm" />
          ) : (
            <Text size="sm" ff="monospace" data-testid="k8s-version">
              {status?.kubernetesVersion || 'n/a'}
            </Text>
          )}
        </Group>
      </Group>
    </Card>
  );
}
