import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPlayerStop, IconRotate, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { canCancelDeployment, canContinueRollback, stackStatusDisplay, type StackEvent } from '@gantry/contracts';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { DataTable } from '../../../ui/DataTable';
import { PageHeader } from '../../../ui/PageHeader';
import { RelativeTime } from '../../../ui/RelativeTime';
import { StatusBadge } from '../../../ui/StatusBadge';
import { useStage } from '../api/stages';
import { useDeployment, useEvents, useStageActions } from '../api/deployments';
import { TerraformLog } from '../components/TerraformLog';
import { Breakable } from '../components/Breakable';
import { LastDeployed } from '../components/LastDeployed';
import { useDeploymentUpdates } from '../hooks/use-deployment-updates';

/**
 * /environments/{stageId}/details (spec §2 "Deployment details"): the live terraform log of the
 * latest (or ?deploymentId=) deployment, or CloudFormation's events; Cancel and Continue Rollback.
 */
export default function DeploymentDetailsPage() {
  const { stageId = '' } = useParams();
  const [params] = useSearchParams();
  const projectId = useCurrentProject()?.id ?? '';
  useDeploymentUpdates(projectId || undefined);
  const stage = useStage(projectId, stageId);
  const deploymentId = params.get('deploymentId') ?? stage.data?.lastDeploymentId ?? null;
  const deployment = useDeployment(projectId, stageId, deploymentId);
  const actions = useStageActions(projectId, stageId);
  const [search, setSearch] = useState('');
  const [confirmCancel, setConfirmCancel] = useState(false);
  const s = stage.data;
  const cfn = s?.infrastructureAsCodeTool === 'cloudformation';
  const status = deployment.data?.status ?? s?.status ?? '';
  // An earlier deployment (?deploymentId= from the insights) is told with its own time, not the environment's last one
  const older = deployment.data && s && deployment.data.id !== s.lastDeploymentId ? deployment.data : null;
  const events = useEvents(projectId, stageId, Boolean(cfn && !status.endsWith('COMPLETE') && !status.includes('FAILED')), Boolean(cfn));
  const wanted = search.trim().toLowerCase().replace(/\s+/g, '_');
  const shownEvents = (events.data ?? []).filter((e) => !wanted || e.resourceStatus.toLowerCase().includes(wanted));

  const cancel = async () => {
    try {
      await actions.cancel.mutateAsync();
      toast.warning('Deployment cancelled!');
      setConfirmCancel(false);
    } catch (e) {
      toast.apiError(e);
    }
  };
  const rollback = async () => {
    try {
      await actions.continueRollback.mutateAsync();
      toast.success('Rollback continued.');
    } catch (e) {
      toast.apiError(e);
    }
  };
  return (
    <Stack gap="lg">
      <PageHeader
        title={s ? `${s.name} — deployment` : 'Deployment'}
        actions={
          <Group gap="xs">
            {canCancelDeployment(status) && (
              <Button color="red" variant="light" leftSection={<IconPlayerStop size={16} />} onClick={() => setConfirmCancel(true)}>
                Cancel
              </Button>
            )}
            {canContinueRollback(status) && (
              <Button variant="light" leftSection={<IconRotate size={16} />} loading={actions.continueRollback.isPending} onClick={() => void rollback()}>
                Continue Rollback
              </Button>
            )}
            <Button variant="default" component={Link} to={`/environments/${stageId}`}>
              View Environment
            </Button>
          </Group>
        }
      />
      <Card withBorder radius="md" padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <div>
            <Text size="xs" c="dimmed">
              Status
            </Text>
            {status ? (
              <span data-testid="details-status">
                <StatusBadge status={status} label={stackStatusDisplay(status)} />
              </span>
            ) : (
              <Text size="sm">—</Text>
            )}
          </div>
          <div>
            <Text size="xs" c="dimmed">
              Last deployed
            </Text>
            <div data-testid="details-last-deployed">
              {older ? <RelativeTime date={older.finishedAt ?? older.startedAt ?? older.timestamp} size="sm" /> : <LastDeployed stage={s} />}
            </div>
          </div>
          <TextInput
            placeholder="Search by status..."
            leftSection={<IconSearch size={14} />}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            aria-label="Search by status"
          />
        </SimpleGrid>
        {deployment.data?.error && (
          <Alert color="red" mt="md" style={{ whiteSpace: 'pre-wrap' }}>
            {deployment.data.error}
          </Alert>
        )}
      </Card>
      {!s ? null : cfn ? (
        <DataTable<StackEvent>
          data-testid="stack-events"
          rows={shownEvents}
          loading={events.isPending}
          rowKey={(e) => e.eventId}
          columns={[
            { key: 'timestamp', header: 'Timestamp', render: (e) => new Date(e.timestamp).toLocaleString() },
            { key: 'logicalResourceId', header: 'Logical resource', render: (e) => <Breakable text={e.logicalResourceId} /> },
            { key: 'resourceType', header: 'Type', render: (e) => <Breakable text={e.resourceType} /> },
            { key: 'resourceStatus', header: 'Status', render: (e) => <StatusBadge status={e.resourceStatus} size="xs" wrap /> },
            // a cause holds long words (a nested stack's ARN, a request id): they break anywhere, so the reason stays in the page
            { key: 'statusReason', header: 'Reason', render: (e) => <div style={{ minWidth: 200, overflowWrap: 'anywhere' }}>{e.statusReason ?? ''}</div> },
          ]}
        />
      ) : deploymentId ? (
        <TerraformLog projectId={projectId} stageId={stageId} deploymentId={deploymentId} filter={search} />
      ) : (
        <Card withBorder radius="md">
          <Text size="sm" c="dimmed">
            This environment has not been deployed yet.
          </Text>
        </Card>
      )}
      <ConfirmModal
        opened={confirmCancel}
        title="Cancel deployment"
        confirmLabel="Cancel Deployment"
        message="Do you really want to cancel the running deployment? This action cannot be undone."
        loading={actions.cancel.isPending}
        onConfirm={() => void cancel()}
        onCancel={() => setConfirmCancel(false)}
      />
    </Stack>
  );
}
