import { ActionIcon, Anchor, Avatar, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconGitCommit, IconRocket, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import { COMMIT_CHARS, type ServiceStatusEntry } from '@gantry/contracts';
import { DataTable, type Column } from '../../../ui/DataTable';
import { RelativeTime } from '../../../ui/RelativeTime';
import { HealthBadge, serviceInClusterRoute, shortVersion } from '../../services';
import { NO_DEPLOYMENT_INFO, podTone, TONE_COLOR } from '../lib/cluster-status';

export type ServiceRowAction = { row: ServiceStatusEntry; action: 'redeploy' | 'undeploy' };

/**
 * The services of one namespace (spec §2 dashboard): Name (to the service in the cluster), Pods (red when one
 * failed, yellow when one is pending), Image Tag, Last Deployed, Status (HEALTHY / FAILED), Commit and actions.
 */
export function ClusterServicesTable({
  clusterId,
  rows,
  loading,
  canWrite,
  onAction,
}: {
  clusterId: string;
  rows: ServiceStatusEntry[];
  loading: boolean;
  canWrite: boolean;
  onAction: (a: ServiceRowAction) => void;
}) {
  const columns: Column<ServiceStatusEntry>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (r) => (
        <Anchor component={Link} to={serviceInClusterRoute(clusterId, r.namespace, r.name)} size="sm" fw={600} data-testid="cluster-service-name">
          {r.name}
        </Anchor>
      ),
    },
    {
      key: 'pods',
      header: 'Pods',
      width: 90,
      render: (r) => {
        const tone = podTone(r.podStatus);
        return (
          <Tooltip label={`${r.podStatus.runningPods} running, ${r.podStatus.pendingPods} pending, ${r.podStatus.failedPods} failed`} withArrow>
            <Text size="sm" fw={600} c={tone === 'ok' ? undefined : TONE_COLOR[tone]} data-testid="cluster-service-pods">
              {r.podStatus.runningPods}/{r.podStatus.totalPods}
            </Text>
          </Tooltip>
        );
      },
    },
    {
      key: 'tag',
      header: 'Image Tag',
      width: 120,
      render: (r) => (
        <Tooltip label={`${r.registry ? `${r.registry}/` : ''}${r.imageRepository}:${r.version ?? ''}`} withArrow>
          <Text size="sm" ff="monospace" data-testid="cluster-service-version">
            {r.version ? shortVersion(r.version, COMMIT_CHARS) : '—'}
          </Text>
        </Tooltip>
      ),
    },
    {
      key: 'deployed',
      // on one line: in its 140 px the header broke after 'Last' beside one-line headers (seen at 1280 and 1366 px)
      header: <span style={{ whiteSpace: 'nowrap' }}>Last Deployed</span>,
      width: 140,
      render: (r) =>
        r.lastDeployed ? (
          <RelativeTime date={r.lastDeployed} />
        ) : (
          <Text size="sm" c="dimmed">
            —
          </Text>
        ),
    },
    { key: 'status', header: 'Status', width: 110, render: (r) => <HealthBadge health={r.health} /> },
    {
      key: 'commit',
      header: 'Commit',
      render: (r) =>
        r.commit ? (
          <Group gap="xs" wrap="nowrap" maw={260}>
            <Avatar src={r.commit.user.avatar || undefined} size={22} radius="xl" color="indigo">
              {r.commit.user.name.slice(0, 1).toUpperCase()}
            </Avatar>
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Group gap={4} wrap="nowrap">
                <IconGitCommit size={13} color="var(--mantine-color-dimmed)" />
                <Text size="xs" ff="monospace">
                  {r.commit.version.slice(0, COMMIT_CHARS)}
                </Text>
              </Group>
              <Text size="xs" c="dimmed" truncate="end" title={r.commit.message}>
                {r.commit.message.split('\n')[0]}
              </Text>
            </Stack>
          </Group>
        ) : (
          <Text size="xs" c="dimmed">
            {NO_DEPLOYMENT_INFO}
          </Text>
        ),
    },
  ];
  if (canWrite) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      align: 'right',
      width: 100,
      render: (r) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Redeploy" withArrow>
            <ActionIcon variant="subtle" color="indigo" aria-label={`Redeploy ${r.name}`} onClick={() => onAction({ row: r, action: 'redeploy' })}>
              <IconRocket size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Undeploy" withArrow>
            <ActionIcon variant="subtle" color="red" aria-label={`Undeploy ${r.name}`} onClick={() => onAction({ row: r, action: 'undeploy' })}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    });
  }
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(r) => `${r.namespace}/${r.name}`}
      loading={loading}
      emptyText={<span data-testid="namespace-empty">{NO_DEPLOYMENT_INFO}</span>}
      data-testid="cluster-services-table"
    />
  );
}
