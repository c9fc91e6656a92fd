import { Anchor, Button, Card, Grid, Group, Progress, Select, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconServer2 } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ServiceStatusEntry } from '@gantry/contracts';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { DataTable, type Column } from '../../../ui/DataTable';
import { Permitted } from '../../../ui/Permitted';
import { EmptyState } from '../../../ui/EmptyState';
import { RelativeTime } from '../../../ui/RelativeTime';
import { podTone, round2, TONE_COLOR, useClusters, useClusterStatus } from '../../clusters';
import { useMicroservicesStatus } from '../api/deployments';
import { serviceInClusterRoute } from '../api/keys';
import { HealthBadge } from './HealthBadge';

/** Spec account-and-platform §2.8: the summary shows 4 services, with View All when there are more. */
export const SUMMARY_ROWS = 4;
const clusterRoute = (id: string) => `/kubernetes/clusters/${encodeURIComponent(id)}`;

/** A share bar: the share in %, '—' until the status is here, and its empty text when there is nothing to count (not 0 %). */
function Bar({
  label,
  counts,
  empty,
  color,
  testId,
}: {
  label: string;
  counts: { part: number; whole: number } | null;
  empty: string;
  color: string;
  testId: string;
}) {
  const value = counts?.whole ? round2((counts.part / counts.whole) * 100) : null;
  return (
    <Stack gap={6}>
      <Group justify="space-between">
        <Text size="xs" fw={600} c="dimmed">
          {label}
        </Text>
        <Text size="xs" fw={600} c={counts && !counts.whole ? 'dimmed' : undefined} data-testid={testId}>
          {!counts ? '—' : value === null ? empty : `${value}%`}
        </Text>
      </Group>
      <Progress value={value ?? 0} size="lg" radius="sm" color={color} />
    </Stack>
  );
}

/**
 * The overview's Kubernetes summary (spec account-and-platform §2.8): a cluster dropdown and a link to its page,
 * the DEPLOYMENTS (available) and PODS (running) bars, and 4 of its services with View All Microservices when more
 * exist. A failing status clears the selected cluster (spec delivery §8); no cluster shows the Connect Kubernetes
 * empty state.
 */
export function KubernetesSummary() {
  const projectId = useCurrentProject()?.id ?? '';
  const navigate = useNavigate();
  const clusters = useClusters(projectId);
  const [selected, setSelected] = useState<string | null>(null);
  const [cleared, setCleared] = useState(false);
  const first = clusters.data?.[0]?.id ?? null;
  const clusterId = selected ?? (cleared ? null : first);
  const status = useClusterStatus(projectId, clusterId ?? undefined);
  const services = useMicroservicesStatus(projectId, clusterId ?? undefined);

  useEffect(() => {
    if (!status.error || !clusterId) return;
    toast.apiError(status.error);
    setSelected(null);
    setCleared(true);
  }, [status.error, clusterId]);

  const rows = services.data ?? [];
  const s = status.data;
  const columns: Column<ServiceStatusEntry>[] = [
    {
      key: 'name',
      header: 'Service Name',
      render: (r) => (
        <Anchor component={Link} to={serviceInClusterRoute(clusterId ?? '', r.namespace, r.name)} size="sm" fw={600}>
          {r.name}
        </Anchor>
      ),
    },
    {
      key: 'namespace',
      header: 'Namespace',
      render: (r) => (
        <Text size="sm" ff="monospace">
          {r.namespace}
        </Text>
      ),
    },
    {
      key: 'pods',
      header: 'Pods',
      render: (r) => {
        const tone = podTone(r.podStatus);
        return (
          <Text size="sm" fw={600} c={tone === 'ok' ? undefined : TONE_COLOR[tone]}>
            {r.podStatus.runningPods}/{r.podStatus.totalPods}
          </Text>
        );
      },
    },
    {
      key: 'version',
      header: 'Version',
      render: (r) => (
        <Text size="sm" ff="monospace">
          {r.version ? r.version.slice(0, 7) : '—'}
        </Text>
      ),
    },
    { key: 'deployed', header: 'Last Deployed', render: (r) => (r.lastDeployed ? <RelativeTime date={r.lastDeployed} /> : '—') },
    { key: 'status', header: 'Status', render: (r) => <HealthBadge health={r.health} /> },
  ];

  const noClusters = clusters.isSuccess && clusters.data.length === 0;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="kubernetes-summary">
      {/* in a narrow card the cluster choice goes under the title rather than squeezing both */}
      <Group justify="space-between" mb="md" gap="sm">
        <Group gap="xs" wrap="nowrap">
          <IconServer2 size={20} color="var(--mantine-color-indigo-6)" />
          <Title order={4} fz="md">
            Kubernetes
          </Title>
          {clusterId && (
            <Anchor component={Link} to={clusterRoute(clusterId)} size="sm">
              Open cluster
            </Anchor>
          )}
        </Group>
        <Select
          aria-label="Cluster"
          placeholder="Select a cluster"
          data={(clusters.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          value={clusterId}
          onChange={(v) => {
            setSelected(v);
            setCleared(false);
          }}
          disabled={!clusters.data?.length}
          w={220}
          size="xs"
        />
      </Group>
      {clusters.isPending && projectId ? (
        <Skeleton height={120} />
      ) : noClusters ? (
        <EmptyState
          compact
          title="No clusters connected yet!"
          description="Connect a Kubernetes cluster to follow its services and pods here."
          action={
            <Permitted action="change">
              {(disabled) => (
                <Button onClick={() => navigate('/kubernetes/clusters')} disabled={disabled}>
                  Connect Kubernetes
                </Button>
              )}
            </Permitted>
          }
        />
      ) : (
        <>
          <Grid gutter="lg" mb="md">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Bar
                label="DEPLOYMENTS"
                counts={s ? { part: s.deploymentsStatus.available, whole: s.deploymentsStatus.total } : null}
                empty="No deployments yet"
                color="indigo"
                testId="summary-deployments"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <Bar
                label="PODS"
                counts={s ? { part: s.podStatus.runningPods, whole: s.podStatus.totalPods } : null}
                empty="No pods yet"
                color="teal"
                testId="summary-pods"
              />
            </Grid.Col>
          </Grid>
          {clusterId && (
            <>
              <DataTable
                columns={columns}
                rows={rows.slice(0, SUMMARY_ROWS)}
                rowKey={(r) => `${r.namespace}/${r.name}`}
                loading={services.isPending}
                data-testid="summary-services"
              />
              {rows.length > SUMMARY_ROWS && (
                <Group justify="flex-end" mt="xs">
                  <Anchor component={Link} to={clusterRoute(clusterId)} size="sm">
                    View All Microservices
                  </Anchor>
                </Group>
              )}
            </>
          )}
        </>
      )}
    </Card>
  );
}
