import { Anchor, Group, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { isPlanLimit } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { PageHeader } from '../../../ui/PageHeader';
import { useErrorToast } from '../../../ui/use-error-toast';
import { useCluster } from '../api/get-cluster';
import { useClusterStatus } from '../api/get-cluster-status';
import { useNamespaces } from '../api/list-namespaces';
import { NamespacesCard } from '../components/NamespacesCard';
import { StatusHeader } from '../components/StatusHeader';
import { TrialExpired } from '../components/TrialExpired';
import { UtilizationCharts } from '../components/UtilizationCharts';

const LIST_PATH = '/kubernetes/clusters';

/**
 * /kubernetes/clusters/:clusterId (spec delivery §2, §4), first slice: the header card, CPU / memory /
 * pods charts and the namespace tabs. The status is polled every 10 s; on an error the figures stay
 * empty with a toast; a 402 replaces the dashboard with the trial-expired page.
 */
export default function ClusterDashboardPage() {
  const { clusterId } = useParams();
  const projectId = useCurrentProject()?.id ?? '';
  const cluster = useCluster(projectId, clusterId);
  const status = useClusterStatus(projectId, clusterId);
  const expired = isPlanLimit(status.error);
  const namespaces = useNamespaces(projectId, clusterId, !expired);
  // One toast for one failure: an unreachable cluster fails its status and its namespaces with the same message.
  useErrorToast(status.error ?? namespaces.error ?? cluster.error);

  const name = cluster.data?.name ?? status.data?.name;
  const backLink = (
    <Anchor component={Link} to={LIST_PATH} size="sm" c="dimmed">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        Back to clusters
      </Group>
    </Anchor>
  );

  return (
    <Stack gap="lg">
      {backLink}
      {name ? (
        <PageHeader
          title={name}
          description={cluster.data?.associatedNamespace ? `Associated namespace: ${cluster.data.associatedNamespace}` : 'Kubernetes cluster'}
        />
      ) : cluster.isPending && status.isPending ? (
        <Skeleton height={34} width={240} radius="sm" mb="lg" data-testid="cluster-title-skeleton" />
      ) : (
        <PageHeader title={clusterId ?? 'Cluster'} />
      )}
      {expired ? (
        <TrialExpired />
      ) : (
        <>
          <StatusHeader status={status.data} loading={status.isPending && Boolean(projectId)} endpoint={cluster.data?.endpoint} />
          <UtilizationCharts status={status.data} loading={status.isPending && Boolean(projectId)} />
          <NamespacesCard namespaces={namespaces.data} loading={namespaces.isPending && Boolean(projectId)} />
        </>
      )}
    </Stack>
  );
}
