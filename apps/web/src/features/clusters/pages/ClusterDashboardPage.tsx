import { Anchor, Button, Group, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft, IconRocket } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { Microservice } from '@gantry/contracts';
import { errorMessage, isApiError, isPlanLimit } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { useCurrentProject } from '../../../api/session';
import { PageHeader } from '../../../ui/PageHeader';
import { useErrorToast } from '../../../ui/use-error-toast';
import { DeployDialog, DeployingModal, UndeployModal, useHandedRollout, useMicroservices, type ServiceInCluster } from '../../services';
import { useCluster } from '../api/get-cluster';
import { useClusterStatus } from '../api/get-cluster-status';
import { useNamespaces } from '../api/list-namespaces';
import type { ServiceRowAction } from '../components/ClusterServicesTable';
import { ClusterFormModal } from '../components/ClusterFormModal';
import { DeploySideMenu } from '../components/DeploySideMenu';
import { NotConnected } from '../components/NotConnected';
import { NamespacesCard } from '../components/NamespacesCard';
import { StatusHeader } from '../components/StatusHeader';
import { TrialExpired } from '../components/TrialExpired';
import { UtilizationCharts } from '../components/UtilizationCharts';

const LIST_PATH = '/kubernetes/clusters';

/**
 * /kubernetes/clusters/:clusterId (spec delivery §2, §4): the header card, the CPU / memory / deployments / pods
 * charts, the namespace tabs with their services (redeploy, undeploy), the side menu to deploy a service and the
 * deploying modal. The status (its services table rows included) is polled every 10 s; on an error the figures stay
 * empty with a toast; a 402 replaces the dashboard with the trial-expired page.
 */
export default function ClusterDashboardPage() {
  const { clusterId = '' } = useParams();
  const project = useCurrentProject();
  const projectId = project?.id ?? '';
  const canWrite = useProjectPermission().can('change');
  const [menuOpen, setMenuOpen] = useState(false);
  const [deploying, setDeploying] = useState<{ service: Microservice; namespace: string | null } | null>(null);
  // A deploy from a service's page (Add to Cluster) lands here with its rollout to follow.
  const { rollout, follow, close } = useHandedRollout(projectId);
  const [undeploying, setUndeploying] = useState<ServiceInCluster | null>(null);
  const cluster = useCluster(projectId, clusterId);
  // The status and the namespaces are the connected cluster's: asked once its read answered it (a cluster not
  // connected yet answers 404, and so would they, each logged by the browser).
  const status = useClusterStatus(projectId, clusterId, cluster.isSuccess);
  const expired = isPlanLimit(status.error);
  const notConnected = [cluster.error, status.error].some((e) => isApiError(e) && e.status === 404);
  const [connecting, setConnecting] = useState(false);
  const namespaces = useNamespaces(projectId, clusterId, cluster.isSuccess && !expired && !notConnected);
  // what is not asked while the cluster's read failed is not loading either
  const statusLoading = status.isPending && !cluster.isError && Boolean(projectId);
  const catalogue = useMicroservices(projectId);
  // One toast for one failure: an unreachable cluster fails its status and its namespaces with the same message.
  useErrorToast(notConnected ? null : (status.error ?? namespaces.error ?? cluster.error));

  const name = cluster.data?.name ?? status.data?.name;
  const associated = cluster.data?.associatedNamespace ?? null;
  const onAction = ({ row, action }: ServiceRowAction) => {
    if (action === 'undeploy') return setUndeploying({ clusterId, namespace: row.namespace, name: row.name });
    const service = catalogue.data?.find((s) => s.name === row.name);
    if (service) setDeploying({ service, namespace: row.namespace });
  };
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
          description={associated ? `Associated namespace: ${associated}` : 'Kubernetes cluster'}
          actions={
            canWrite &&
            !expired && (
              <Button leftSection={<IconRocket size={16} />} onClick={() => setMenuOpen(true)}>
                Deploy Service
              </Button>
            )
          }
        />
      ) : cluster.isPending && status.isPending ? (
        <Skeleton height={34} width={240} radius="sm" mb="lg" data-testid="cluster-title-skeleton" />
      ) : (
        <PageHeader title={clusterId ?? 'Cluster'} />
      )}
      {expired ? (
        <TrialExpired />
      ) : notConnected ? (
        <NotConnected clusterId={clusterId} onConnect={() => setConnecting(true)} />
      ) : (
        <>
          <StatusHeader status={status.data} loading={statusLoading} endpoint={cluster.data?.endpoint} />
          <UtilizationCharts status={status.data} loading={statusLoading} />
          <NamespacesCard
            clusterId={clusterId}
            namespaces={namespaces.data}
            loading={namespaces.isPending && !cluster.isError && Boolean(projectId)}
            services={status.data?.microservicesStatus}
            servicesLoading={statusLoading}
            servicesError={status.isError && !status.data ? errorMessage(status.error) : null}
            canWrite={canWrite}
            onAction={onAction}
            followNamespace={rollout?.namespace ?? null}
          />
        </>
      )}
      <ClusterFormModal projectId={projectId} opened={connecting} cluster={null} initialName={clusterId} onClose={() => setConnecting(false)} />
      <DeploySideMenu
        projectId={projectId}
        clusterId={clusterId}
        opened={menuOpen}
        onClose={() => setMenuOpen(false)}
        onDeploy={(service) => {
          setMenuOpen(false);
          setDeploying({ service, namespace: associated });
        }}
      />
      <DeployDialog
        projectId={projectId}
        service={deploying?.service ?? null}
        clusterId={clusterId}
        clusterName={name ?? clusterId}
        namespace={deploying?.namespace ?? associated}
        onClose={() => setDeploying(null)}
        onDeployed={follow}
      />
      <DeployingModal target={rollout} onClose={close} />
      <UndeployModal projectId={projectId} target={undeploying} onClose={() => setUndeploying(null)} />
    </Stack>
  );
}
