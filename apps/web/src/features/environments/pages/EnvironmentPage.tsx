import { Alert, Button, Card, Grid, Group, LoadingOverlay, Modal, Stack, Text } from '@mantine/core';
import { IconFileSearch, IconPlayerPlay, IconPlayerStop, IconRocket, IconTerminal2 } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  deployBlockedReason,
  deploymentMinutes,
  environmentActions,
  missingTargetAccount,
  stageInProgress,
  COST_TAG_KEY,
  scheduleActionToast,
  type Component,
  type Resource,
} from '@gantry/contracts';
import { errorMessage, isPlanLimit } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { stageKeys } from '../api/keys';
import { toast } from '../../../api/toast';
import { CardGrid } from '../../../ui/CardGrid';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { CopyToClipboard } from '../../../ui/CopyToClipboard';
import { EmptyState } from '../../../ui/EmptyState';
import { PageHeader } from '../../../ui/PageHeader';
import { toastClearance } from '../../../ui/toast-clearance';
import { StatusBadge } from '../../../ui/StatusBadge';
import { useErrorToast } from '../../../ui/use-error-toast';
import { useStage } from '../api/stages';
import { useResources, useResourceMutations } from '../api/resources';
import { useDeploymentTime, useStageActions, getHistory } from '../api/deployments';
import { changeScheduleState, useSchedules } from '../api/lookups';
import { AdvisorStatsPanel } from '../../advisor';
import { useComponents } from '../../components';
import { useBuildLimitations } from '../../pipelines';
import { ComponentSideList } from '../components/ComponentSideList';
import { CostTeaser } from '../components/CostTeaser';
import { EnvironmentMenu } from '../components/EnvironmentMenu';
import { ResourceCard } from '../components/ResourceCard';
import { ResourceModal } from '../components/ResourceModal';
import { useEnvironmentActions } from '../hooks/use-environment-actions';
import { useDeploymentUpdates } from '../hooks/use-deployment-updates';
import { providerLabel, statusLabel, toolLabel } from '../lib/labels';
import { Permitted } from '../../../ui/Permitted';
import { LastDeployed } from '../components/LastDeployed';

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} lts={0.3}>
        {label}
      </Text>
      <div style={{ marginTop: 4 }}>{children}</div>
    </div>
  );
}

type Confirm =
  { kind: 'cancel' } | { kind: 'start' | 'stop'; scheduleId: string } | { kind: 'delete-resource' | 'undeploy-resource'; resource: Resource } | null;

/** /environments/{stageId} (spec §2 "Environment details"). */
export default function EnvironmentPage() {
  const { stageId = '' } = useParams();
  const projectId = useCurrentProject()?.id ?? '';
  useDeploymentUpdates(projectId || undefined);
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const stage = useStage(projectId, stageId);
  const running = stageInProgress(stage.data?.status);
  const resources = useResources(projectId, stageId, running);
  const actions = useStageActions(projectId, stageId);
  const envActions = useEnvironmentActions(projectId);
  const resourceMutations = useResourceMutations(projectId, stageId);
  const schedules = useSchedules(projectId);
  const components = useComponents(projectId);
  const terraform = stage.data?.infrastructureAsCodeTool === 'terraform';
  const time = useDeploymentTime(projectId, terraform);
  const limits = useBuildLimitations(projectId);
  const [modal, setModal] = useState<{ component: { id: string; name: string }; editing: Resource | null } | null>(null);
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [blocked, setBlocked] = useState<{ title: string; message: string } | null>(null);
  const [selectAccount, setSelectAccount] = useState(false);
  const [starting, setStarting] = useState(false);
  useErrorToast(stage.error, 'Something went wrong while getting statistics!');

  // Add to Environment of a component whose inputs need values lands here with ?addComponent=
  const addComponent = params.get('addComponent');
  useEffect(() => {
    if (!addComponent || !components.data) return;
    const c = components.data.find((x) => x.id === addComponent);
    if (c) setModal({ component: { id: c.id, name: c.name }, editing: null });
    setParams({}, { replace: true });
  }, [addComponent, components.data, setParams]);

  if (!stage.data) {
    return stage.isError ? (
      <Alert color="red">{errorMessage(stage.error, 'Something went wrong while getting statistics!')}</Alert>
    ) : (
      <Text c="dimmed" size="sm">
        Loading…
      </Text>
    );
  }
  const s = stage.data;
  const can = environmentActions(s.status);
  const costBlocked = isPlanLimit(schedules.error);
  const savingSchedule = schedules.data?.find((x) => x.state === 'ENABLED' && x.resourcesTagKey === COST_TAG_KEY && x.resourcesTagValue === s.id);

  /** Both deploy and plan need the provider's account (spec §4). */
  const needsAccount = () => {
    if (missingTargetAccount(s).length) {
      setSelectAccount(true);
      return true;
    }
    return false;
  };

  const quickDeploy = async () => {
    const reason = deployBlockedReason(s.status);
    if (reason) return setBlocked(reason);
    if (needsAccount()) return;
    setStarting(true);
    try {
      await actions.deploy.mutateAsync();
      try {
        await getHistory(projectId, stageId);
        navigate(`/environments/${stageId}/deployment-insights`);
      } catch (e) {
        // insights are a plan feature: without them the user follows the deployment on the details page
        if (isPlanLimit(e)) navigate(`/environments/${stageId}/details`);
        else throw e;
      }
    } catch (e) {
      toast.apiError(e);
    } finally {
      setStarting(false);
    }
  };

  const createPlan = async () => {
    if (needsAccount()) return;
    try {
      const { planId } = await actions.plan.mutateAsync();
      navigate(`/environments/${stageId}/plan?planId=${planId}`);
    } catch (e) {
      toast.apiError(e);
    }
  };

  const runConfirm = async () => {
    if (!confirm) return;
    try {
      if (confirm.kind === 'cancel') {
        await actions.cancel.mutateAsync();
        toast.warning('Deployment cancelled!');
      } else if (confirm.kind === 'start' || confirm.kind === 'stop') {
        await changeScheduleState(projectId, confirm.scheduleId, confirm.kind);
        toast.success(scheduleActionToast(confirm.kind));
      } else if (confirm.kind === 'delete-resource') {
        await resourceMutations.remove.mutateAsync(confirm.resource.name);
        toast.success('Deleted resource.');
      } else if (confirm.kind === 'undeploy-resource') {
        await resourceMutations.undeploy.mutateAsync(confirm.resource.name);
        void qc.invalidateQueries({ queryKey: stageKeys.detail(projectId, stageId) });
        navigate(`/environments/${stageId}/deployment-insights`);
      }
      setConfirm(null);
    } catch (e) {
      toast.apiError(e);
    }
  };

  const usedMinutes = deploymentMinutes(time.data?.deploymentTime ?? 0);
  const list = resources.data ?? [];
  return (
    <Stack gap="lg" pos="relative">
      <LoadingOverlay
        visible={starting}
        overlayProps={{ blur: 1 }}
        loaderProps={{
          children: (
            <Stack align="center" gap="xs">
              <Text fw={600}>Your deploy is being started. Please wait...</Text>
            </Stack>
          ),
        }}
      />
      <PageHeader
        title={s.name}
        description={s.description}
        actions={
          <Group gap="xs">
            <Permitted action="change">
              {(refused) =>
                can.cancel ? (
                  <Button
                    color="red"
                    variant="light"
                    leftSection={<IconPlayerStop size={16} />}
                    disabled={refused}
                    onClick={() => setConfirm({ kind: 'cancel' })}
                  >
                    Cancel Deployment
                  </Button>
                ) : (
                  <Group gap="xs">
                    <Button leftSection={<IconRocket size={16} />} disabled={refused} onClick={() => void quickDeploy()}>
                      Quick Deploy
                    </Button>
                    {terraform && (
                      <Button
                        variant="light"
                        leftSection={<IconFileSearch size={16} />}
                        disabled={refused}
                        loading={actions.plan.isPending}
                        onClick={() => void createPlan()}
                      >
                        Create Plan
                      </Button>
                    )}
                  </Group>
                )
              }
            </Permitted>
            {savingSchedule && (
              <Permitted action="change">
                {(refused) => (
                  <Button.Group>
                    <Button
                      variant="default"
                      leftSection={<IconPlayerPlay size={14} />}
                      disabled={refused}
                      onClick={() => setConfirm({ kind: 'start', scheduleId: savingSchedule.id })}
                    >
                      Start All
                    </Button>
                    <Button
                      variant="default"
                      leftSection={<IconPlayerStop size={14} />}
                      disabled={refused}
                      onClick={() => setConfirm({ kind: 'stop', scheduleId: savingSchedule.id })}
                    >
                      Stop All
                    </Button>
                  </Button.Group>
                )}
              </Permitted>
            )}
            <Button variant="default" component={Link} to={`/environments/${stageId}/details`} leftSection={<IconTerminal2 size={16} />}>
              View Logs
            </Button>
            <EnvironmentMenu stage={s} withInsights onUndeploy={() => envActions.askUndeploy(s)} onDelete={() => envActions.askDelete(s)} />
          </Group>
        }
      />
      <Card ref={toastClearance} withBorder radius="md" padding="lg" data-testid="environment-facts">
        {/* A fact needs 150 px: its label on one line ('Deployment time', 'Environment ID'), 'Amazon Web Services'. */}
        <CardGrid minWidth={150} max={terraform ? 6 : 5}>
          <Fact label="Status">
            <StatusBadge status={s.status} label={statusLabel(s.status)} />
          </Fact>
          <Fact label="Last Deployed">
            <LastDeployed stage={s} />
          </Fact>
          <Fact label="Cloud Provider">
            <Text size="sm">{providerLabel(s.cloudProvider)}</Text>
          </Fact>
          <Fact label="IaC Tool">
            <Text size="sm">{toolLabel(s.infrastructureAsCodeTool)}</Text>
          </Fact>
          <Fact label="Environment ID">
            <Group gap={4} wrap="nowrap">
              <Text size="sm" ff="monospace" truncate="end">
                {s.id.slice(0, 8)}…
              </Text>
              <CopyToClipboard value={s.id} />
            </Group>
          </Fact>
          {terraform && (
            <Fact label="Deployment time">
              <Text size="sm" data-testid="deployment-time">
                {usedMinutes} / {limits.data?.buildMinutes ?? '—'} mins
              </Text>
            </Fact>
          )}
        </CardGrid>
      </Card>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="sm">
            <Group justify="space-between">
              <Text fw={650}>Resources</Text>
              <Text size="sm" c="dimmed">
                {list.length} resource{list.length === 1 ? '' : 's'}
              </Text>
            </Group>
            {resources.isPending ? (
              <Text size="sm" c="dimmed">
                Loading…
              </Text>
            ) : !list.length ? (
              <Card withBorder radius="md" padding={0}>
                <EmptyState compact title="No resources yet" description="Review the components on the right and choose which to add to this environment." />
              </Card>
            ) : (
              list.map((r) => (
                <ResourceCard
                  key={r.name}
                  projectId={projectId}
                  stage={s}
                  resource={r}
                  onConfigure={() => setModal({ component: { id: r.component.id, name: r.component.name }, editing: r })}
                  onDelete={() => setConfirm({ kind: 'delete-resource', resource: r })}
                  onUndeploy={() => setConfirm({ kind: 'undeploy-resource', resource: r })}
                />
              ))
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="lg">
            <ComponentSideList projectId={projectId} stage={s} onPick={(c: Component) => setModal({ component: { id: c.id, name: c.name }, editing: null })} />
            <Card withBorder radius="md" padding="md" data-testid="statistics-panel">
              <Text fw={650} mb="xs">
                Statistics
              </Text>
              {costBlocked || s.cloudProvider !== 'aws' ? (
                <CostTeaser />
              ) : (
                <AdvisorStatsPanel projectId={projectId} stageId={s.id} awsAccountId={s.awsAccountId ?? ''} awsRegion={s.awsRegion ?? ''} />
              )}
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>

      {modal && (
        <ResourceModal
          opened
          onClose={() => setModal(null)}
          projectId={projectId}
          stageId={stageId}
          component={modal.component}
          editing={modal.editing}
          others={list}
        />
      )}
      {envActions.modal}
      <ConfirmModal
        opened={Boolean(confirm)}
        danger={confirm?.kind === 'delete-resource' || confirm?.kind === 'undeploy-resource'}
        title={
          confirm?.kind === 'cancel'
            ? 'Cancel deployment'
            : confirm?.kind === 'start'
              ? 'Start all resources'
              : confirm?.kind === 'stop'
                ? 'Stop all resources'
                : confirm?.kind === 'delete-resource'
                  ? 'Delete resource'
                  : 'Undeploy resource'
        }
        confirmLabel={
          confirm?.kind === 'cancel'
            ? 'Cancel Deployment'
            : confirm?.kind === 'start'
              ? 'Start All'
              : confirm?.kind === 'stop'
                ? 'Stop All'
                : confirm?.kind === 'delete-resource'
                  ? 'Delete'
                  : 'Undeploy'
        }
        message={
          confirm?.kind === 'cancel'
            ? 'Do you really want to cancel the running deployment? This action cannot be undone.'
            : confirm?.kind === 'start' || confirm?.kind === 'stop'
              ? `Do you want to ${confirm.kind} every EC2 instance and RDS database of this environment's saving schedule now? You can ${confirm.kind === 'start' ? 'stop' : 'start'} them again at any time.`
              : confirm?.kind === 'delete-resource'
                ? `Do you really want to delete the resource ${confirm.resource.name}? This action cannot be undone.`
                : confirm && 'resource' in confirm
                  ? `Do you really want to undeploy the resource ${confirm.resource.name}? Its cloud resources are deleted. This action cannot be undone.`
                  : ''
        }
        loading={actions.cancel.isPending || resourceMutations.remove.isPending || resourceMutations.undeploy.isPending}
        onConfirm={() => void runConfirm()}
        onCancel={() => setConfirm(null)}
      />
      <Modal opened={Boolean(blocked)} onClose={() => setBlocked(null)} title={<Text fw={600}>{blocked?.title}</Text>} centered>
        <Stack>
          <Text size="sm">{blocked?.message}</Text>
          <Group justify="flex-end">
            <Button onClick={() => setBlocked(null)}>OK</Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={selectAccount} onClose={() => setSelectAccount(false)} title={<Text fw={600}>Select an account</Text>} centered>
        <Stack>
          <Text size="sm">This environment has no {providerLabel(s.cloudProvider)} account to deploy to yet. Select one first.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setSelectAccount(false)}>
              Cancel
            </Button>
            <Button leftSection={<IconPlayerPlay size={14} />} onClick={() => navigate(`/environments/${stageId}/edit`)}>
              Select
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
