import { Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { COMMIT_CHARS, type DeploymentHistoryEntry } from '@gantry/contracts';
import { errorMessage } from '../../../api/errors';
import { DataTable, type Column } from '../../../ui/DataTable';
import { RelativeTime } from '../../../ui/RelativeTime';
import { ServiceDeployBadge } from './ServiceDeployBadge';
import { useDeploymentHistory } from '../api/in-cluster';
import type { ServiceInCluster } from '../api/deployments';

const columns: Column<DeploymentHistoryEntry>[] = [
  {
    key: 'status',
    header: 'Status',
    width: 150,
    render: (h) => <ServiceDeployBadge status={h.status} size="md" />,
  },
  { key: 'time', header: 'Time', width: 140, render: (h) => <RelativeTime date={h.timestamp} /> },
  {
    key: 'initiator',
    header: 'Initiator',
    render: (h) => <Text size="sm">{h.initiator.kind === 'pipeline' ? `pipeline ${h.initiator.pipelineId ?? ''}` : (h.initiator.email ?? '—')}</Text>,
  },
  {
    key: 'versions',
    header: 'Versions',
    render: (h) => (
      <Text size="sm" ff="monospace" data-testid="history-versions">
        {h.previousVersion ? `${h.previousVersion} → ` : ''}
        {h.version}
      </Text>
    ),
  },
  {
    key: 'commit',
    header: 'Commit',
    width: 100,
    render: (h) => (
      <Text size="sm" ff="monospace" c={h.commit ? undefined : 'dimmed'} title={h.commit ?? undefined}>
        {h.commit ? h.commit.slice(0, COMMIT_CHARS) : '—'}
      </Text>
    ),
  },
  {
    key: 'error',
    header: 'Error',
    render: (h) =>
      h.error ? (
        <Tooltip label={h.error} multiline maw={420} withArrow>
          <Text size="sm" c="red" lineClamp={2}>
            {h.error}
          </Text>
        </Tooltip>
      ) : (
        <Text size="sm" c="dimmed">
          —
        </Text>
      ),
  },
];

/** Service deployment history (spec §2, §3): every deploy and undeploy in this namespace, newest first, 10 more on demand. */
export function HistoryTable({ projectId, target }: { projectId: string; target: ServiceInCluster }) {
  const history = useDeploymentHistory(projectId, target);
  const rows = history.data?.pages.flatMap((p) => p.history) ?? [];
  return (
    <Stack gap="sm">
      {history.isError && !history.data ? (
        <Text c="red" size="sm" p="md">
          {errorMessage(history.error)}
        </Text>
      ) : (
        <DataTable columns={columns} rows={rows} rowKey={(h) => h.id} loading={history.isPending} data-testid="deployment-history" />
      )}
      {history.hasNextPage && (
        <Group justify="center" pb="md">
          <Button variant="subtle" size="xs" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
