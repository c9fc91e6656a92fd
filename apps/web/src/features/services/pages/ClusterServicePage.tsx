import { Anchor, Button, Card, Group, Skeleton, Stack, Tabs, Text, Tooltip } from '@mantine/core';
import { IconArrowLeft, IconChartBar, IconFileCode, IconList, IconRefresh, IconRocket, IconSearch, IconTerminal2, IconTrash } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { SERVICE_VIEW_VERSION_CHARS, serviceMessages } from '@gantry/contracts';
import { errorMessage, isApiError } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { useCurrentProject } from '../../../api/session';
import { CardGrid } from '../../../ui/CardGrid';
import { EmptyState } from '../../../ui/EmptyState';
import { PageHeader } from '../../../ui/PageHeader';
import { toastClearance } from '../../../ui/toast-clearance';
import { RelativeTime } from '../../../ui/RelativeTime';
import { useErrorToast } from '../../../ui/use-error-toast';
import { useClusters } from '../../clusters';
import { useDeploymentStatus, useMicroservicesStatus } from '../api/deployments';
import { useMicroservice } from '../api/get-microservice';
import { usePodEvents, usePods } from '../api/in-cluster';
import { serviceRoute } from '../api/keys';
import { DeployDialog } from '../components/DeployDialog';
import { EventsTab } from '../components/EventsTab';
import { HealthBadge } from '../components/HealthBadge';
import { HistoryTable } from '../components/HistoryTable';
import { InsightsTab } from '../components/InsightsTab';
import { LogsTab } from '../components/LogsTab';
import { SpecModal } from '../components/SpecModal';
import { UndeployModal } from '../components/UndeployModal';
import { shortVersion } from '../lib/versions';

function Field({ label, children, loading }: { label: string; children: ReactNode; loading: boolean }) {
  return (
    <Stack gap={4} style={{ minWidth: 0 }}>
      <Text size="xs" fw={600} tt="uppercase" c="dimmed">
        {label}
      </Text>
      {loading ? <Skeleton height={20} width="70%" /> : children}
    </Stack>
  );
}

/** The answer for a name that is none of the project's services (a workload Gantry did not create, a deleted service). */
const isUnknownService = (e: unknown) => isApiError(e) && e.status === 404 && e.message === serviceMessages.notFound;

/**
 * /kubernetes/clusters/:clusterId/namespaces/:namespace/:microserviceName/details (spec §2): the header (Name, Image
 * and Version as 6 characters, Last Deployed, Status), Logs / Events / Insights, the Kubernetes Spec modal and the
 * deployment history; Redeploy and Undeploy for members who may write. For a name that is none of the project's services
 * (reached by typing its address), a not-found state with the way back to the cluster, and nothing more asked.
 */
export default function ClusterServicePage() {
  const { clusterId = '', namespace = '', microserviceName = '' } = useParams();
  const project = useCurrentProject();
  const projectId = project?.id ?? '';
  const canWrite = useProjectPermission().can('change');
  const navigate = useNavigate();
  const target = { clusterId, namespace, name: microserviceName };
  const [tab, setTab] = useState<string | null>('logs');
  const [specOpen, setSpecOpen] = useState(false);
  const [redeploying, setRedeploying] = useState(false);
  const [undeploying, setUndeploying] = useState(false);

  const service = useMicroservice(projectId, microserviceName);
  const rows = useMicroservicesStatus(projectId, clusterId);
  const row = rows.data?.find((r) => r.namespace === namespace && r.name === microserviceName);
  const status = useDeploymentStatus(projectId, target, { poll: 10_000, enabled: !isUnknownService(service.error) });
  // the page says 'Service not found' once, as its state, not also in a toast and in the history's card
  const unknown = isUnknownService(service.error) || isUnknownService(status.error);
  const pods = usePods(projectId, target, !unknown);
  const events = usePodEvents(projectId, target, tab === 'events');
  const cluster = useClusters(projectId).data?.find((c) => c.id === clusterId);
  useErrorToast(rows.error ?? (unknown ? null : status.error));

  const loading = rows.isPending && Boolean(projectId);
  const image = row ? (row.registry ? `${row.registry}/${row.imageRepository}` : row.imageRepository) : (service.data?.imageRepository ?? '');
  const version = row?.version ?? status.data?.version ?? null;
  // Nothing to undeploy once the service is gone from this namespace (an older line of the overview's timeline opens this page).
  const deployed = Boolean(row) || status.data?.deployed === true;
  const dashboard = `/kubernetes/clusters/${encodeURIComponent(clusterId)}`;
  const clusterName = cluster?.name ?? clusterId;

  if (unknown) {
    return (
      <Stack gap="lg">
        <PageHeader
          title={microserviceName}
          description={
            <>
              Namespace <b>{namespace}</b> of cluster <b>{clusterName}</b>
            </>
          }
        />
        <Card withBorder radius="md" padding={0} data-testid="cluster-service-not-found">
          <EmptyState
            icon={<IconSearch size={28} stroke={1.5} />}
            title={serviceMessages.notFound}
            description={`${microserviceName} is not one of this project's services: Gantry did not deploy it to ${namespace}, or the service was deleted since.`}
            action={
              <Button component={Link} to={dashboard} leftSection={<IconArrowLeft size={16} />}>
                Back to {clusterName}
              </Button>
            }
          />
        </Card>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <Anchor component={Link} to={dashboard} size="sm" c="dimmed">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          Back to {clusterName}
        </Group>
      </Anchor>
      <PageHeader
        title={microserviceName}
        description={
          <>
            Namespace <b>{namespace}</b> of cluster <b>{clusterName}</b> ·{' '}
            <Anchor component={Link} to={serviceRoute(microserviceName)} size="sm">
              service details
            </Anchor>
          </>
        }
        actions={
          <>
            <Button variant="default" leftSection={<IconFileCode size={16} />} onClick={() => setSpecOpen(true)}>
              Kubernetes Spec
            </Button>
            {canWrite && (
              <>
                <Button variant="light" leftSection={<IconRocket size={16} />} disabled={!service.data} onClick={() => setRedeploying(true)}>
                  Redeploy
                </Button>
                <Button variant="light" color="red" leftSection={<IconTrash size={16} />} disabled={!deployed} onClick={() => setUndeploying(true)}>
                  Undeploy
                </Button>
              </>
            )}
          </>
        }
      />
      <Card ref={toastClearance} withBorder radius="md" padding="lg" data-testid="cluster-service-header">
        {/* columns from the card's own width, not the window's; 140 px a field keeps the five on one row at 1280 px */}
        <CardGrid minWidth={140} max={5}>
          <Field label="Name" loading={false}>
            <Text fw={600}>{microserviceName}</Text>
          </Field>
          <Field label="Image" loading={loading && !image}>
            <Tooltip label={image} disabled={!image} withArrow>
              <Text ff="monospace" size="sm" truncate="end" data-testid="header-image">
                {image ? shortVersion(image.split('/').pop(), SERVICE_VIEW_VERSION_CHARS) : '—'}
              </Text>
            </Tooltip>
          </Field>
          <Field label="Version" loading={loading}>
            <Tooltip label={version ?? ''} disabled={!version} withArrow>
              <Text ff="monospace" size="sm" data-testid="header-version">
                {version ? shortVersion(version, SERVICE_VIEW_VERSION_CHARS) : '—'}
              </Text>
            </Tooltip>
          </Field>
          <Field label="Last Deployed" loading={loading}>
            {row?.lastDeployed ? <RelativeTime date={row.lastDeployed} c={undefined} /> : <Text size="sm">—</Text>}
          </Field>
          <Field label="Status" loading={loading}>
            {row ? (
              <HealthBadge health={row.health} />
            ) : (
              <Text size="sm" c="dimmed">
                {rows.isError ? errorMessage(rows.error) : 'Not deployed'}
              </Text>
            )}
          </Field>
        </CardGrid>
      </Card>
      <Card withBorder radius="md" padding="lg">
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="logs" leftSection={<IconTerminal2 size={15} />}>
              Logs
            </Tabs.Tab>
            <Tabs.Tab value="events" leftSection={<IconList size={15} />}>
              Events
            </Tabs.Tab>
            <Tabs.Tab value="insights" leftSection={<IconChartBar size={15} />}>
              Insights
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="logs">
            <LogsTab projectId={projectId} target={target} pods={pods.data} podsLoading={pods.isPending} />
          </Tabs.Panel>
          <Tabs.Panel value="events">
            <EventsTab events={events.data} loading={events.isPending} error={events.isError ? errorMessage(events.error) : null} />
          </Tabs.Panel>
          <Tabs.Panel value="insights">
            <InsightsTab status={status.data} loading={status.isPending} />
          </Tabs.Panel>
        </Tabs>
      </Card>
      <Card withBorder radius="md" padding={0}>
        <Group justify="space-between" p="md" pb={0}>
          <Text fw={600}>Service deployment history</Text>
          <IconRefresh size={14} color="var(--mantine-color-dimmed)" />
        </Group>
        <HistoryTable projectId={projectId} target={target} />
      </Card>
      <SpecModal projectId={projectId} target={target} opened={specOpen} onClose={() => setSpecOpen(false)} />
      <DeployDialog
        projectId={projectId}
        service={redeploying ? (service.data ?? null) : null}
        clusterId={clusterId}
        clusterName={clusterName}
        namespace={namespace}
        onClose={() => setRedeploying(false)}
      />
      <UndeployModal projectId={projectId} target={undeploying ? target : null} onClose={() => setUndeploying(false)} onDone={() => navigate(dashboard)} />
    </Stack>
  );
}
