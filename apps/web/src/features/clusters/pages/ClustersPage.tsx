import { ActionIcon, Anchor, Badge, Button, Group, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconSteeringWheel, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { matchesSearch, type Cluster, type ClusterList } from '@gantry/contracts';
import { errorMessage, isPlanLimit } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { useCurrentProject } from '../../../api/session';
import { DataTable, type Column } from '../../../ui/DataTable';
import { PageHeader } from '../../../ui/PageHeader';
import { SearchableTableCard } from '../../../ui/SearchableTableCard';
import { UpgradePrompt } from '../../../ui/UpgradePrompt';
import { useErrorToast } from '../../../ui/use-error-toast';
import { useClusters } from '../api/list-clusters';
import { ClusterFormModal } from '../components/ClusterFormModal';
import { DeleteClusterModal } from '../components/DeleteClusterModal';
import { Reachability } from '../components/Reachability';
import { BADGE_FIT } from '../../../ui/badge-fit';

export const dashboardPath = (clusterId: string) => `/kubernetes/clusters/${encodeURIComponent(clusterId)}`;
type Row = ClusterList['kuberneteses'][number];

/**
 * /kubernetes/clusters (spec delivery §2 Clusters): the project's clusters with their reachability
 * (nodes and pods, or NOT REACHABLE with the reason); Connect, Edit and Remove for members who may
 * write. Connect is disabled with an upgrade hint when the plan blocks it (402).
 */
export default function ClustersPage() {
  const project = useCurrentProject();
  const projectId = project?.id ?? '';
  // The server enforces roles (DESIGN §4); the interface only hides what a read-only member cannot do.
  const canWrite = useProjectPermission().can('change');
  const clusters = useClusters(projectId, true);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Cluster | null>(null);
  const [connecting, setConnecting] = useState(false);
  const [removing, setRemoving] = useState<Cluster | null>(null);
  const [planBlocked, setPlanBlocked] = useState<string | null>(null);
  useErrorToast(clusters.error);

  const blocked = isPlanLimit(clusters.error) ? errorMessage(clusters.error) : planBlocked;
  const rows: Row[] = (clusters.data ?? []).filter((c) => matchesSearch(search, c.name, c.endpoint, c.associatedNamespace ?? ''));
  const isEmpty = clusters.isSuccess && clusters.data.length === 0;

  const columns: Column<Row>[] = [
    {
      key: 'name',
      header: 'Cluster',
      render: (c) => (
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={34} radius="md" variant="light" color="blue">
            <IconSteeringWheel size={19} />
          </ThemeIcon>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Anchor component={Link} to={dashboardPath(c.id)} size="sm" fw={600} c="var(--mantine-color-text)" data-testid="cluster-name">
              {c.name}
            </Anchor>
            <Text size="xs" c="dimmed" ff="monospace" truncate="end" maw={340} data-testid="cluster-endpoint">
              {c.endpoint}
            </Text>
          </Stack>
        </Group>
      ),
    },
    {
      key: 'type',
      header: 'Type',
      width: 110,
      render: (c) => (
        <Badge variant="light" color="gray" radius="sm" tt="none" {...BADGE_FIT}>
          {c.type}
        </Badge>
      ),
    },
    {
      key: 'namespace',
      header: 'Namespace',
      width: 160,
      render: (c) =>
        c.associatedNamespace ? (
          <Text size="sm" ff="monospace" data-testid="cluster-namespace">
            {c.associatedNamespace}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            Any
          </Text>
        ),
    },
    {
      key: 'reachability',
      header: 'Reachability',
      width: 280,
      render: (c) => <Reachability status={c.status} reason={c.unreachableReason} />,
    },
  ];
  if (canWrite) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      align: 'right',
      width: 110,
      render: (c) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Tooltip label="Edit" withArrow>
            <ActionIcon variant="subtle" color="gray" aria-label={`Edit cluster ${c.name}`} onClick={() => setEditing(c)}>
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Remove" withArrow>
            <ActionIcon variant="subtle" color="red" aria-label={`Remove cluster ${c.name}`} onClick={() => setRemoving(c)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    });
  }

  const connectButton = canWrite && (
    <Tooltip label="Your plan does not include connecting Kubernetes clusters: upgrade to connect one" disabled={!blocked} withArrow multiline maw={280}>
      {/* A disabled button gets no pointer events: the wrapper keeps the tooltip working. */}
      <span>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setConnecting(true)} disabled={Boolean(blocked)}>
          Connect Kubernetes
        </Button>
      </span>
    </Tooltip>
  );

  return (
    <Stack gap="lg">
      <PageHeader
        title="Kubernetes Clusters"
        description="The clusters your services are deployed to, and how they are doing"
        actions={!isEmpty && connectButton}
      />
      {blocked && <UpgradePrompt message={blocked} />}
      <SearchableTableCard
        empty={
          isEmpty && {
            title: 'No Kubernetes clusters yet',
            icon: <IconSteeringWheel size={28} stroke={1.5} />,
            color: 'blue',
            description:
              'Connect a cluster with its API server endpoint and a service account token to watch its nodes and pods and deploy your services to it.',
            action: connectButton || undefined,
          }
        }
        noun={['cluster', 'clusters']}
        search={{ value: search, onChange: setSearch }}
        total={clusters.data?.length}
        error={clusters.isError && !clusters.data ? { message: errorMessage(clusters.error), planLimit: isPlanLimit(clusters.error) } : null}
      >
        <DataTable columns={columns} rows={rows} rowKey={(c) => c.id} loading={clusters.isPending && Boolean(projectId)} data-testid="clusters-table" />
      </SearchableTableCard>
      <ClusterFormModal
        projectId={projectId}
        opened={connecting || Boolean(editing)}
        cluster={editing}
        onClose={() => {
          setConnecting(false);
          setEditing(null);
        }}
        onPlanLimit={setPlanBlocked}
      />
      <DeleteClusterModal projectId={projectId} cluster={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}
