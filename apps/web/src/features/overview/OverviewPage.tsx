import { Anchor, Button, Card, Grid, Group, ScrollArea, SegmentedControl, Skeleton, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { buildStatusClass, stackStatusDisplay, type TimelineEvent } from '@gantry/contracts';
import { StatusBadge } from '../../ui/StatusBadge';
import { Permitted } from '../../ui/Permitted';
import { RelativeTime } from '../../ui/RelativeTime';
import { timelineEvents, useTimeline } from './api/get-timeline';
import { useBuildUpdates, usePipelineList } from '../pipelines';
import { useProjectEvents } from '../../api/use-project-events';
import { KubernetesSummary, ServiceDeployBadge, serviceInClusterRoute } from '../services';
import { useDeploymentUpdates, useStageList } from '../environments';
import { toast } from '../../api/toast';
import { IconActivity, IconBox, IconCloudUpload, IconGitMerge, IconStack2, IconTimeline } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCurrentProject } from '../../api/session';
import { EmptyState } from '../../ui/EmptyState';
import { NO_DATA } from '../../ui/DataTable';
import { PageHeader } from '../../ui/PageHeader';

function Panel({ title, icon, extra, children, minHeight }: { title: string; icon: ReactNode; extra?: ReactNode; children: ReactNode; minHeight?: number }) {
  return (
    <Card withBorder radius="md" padding="lg" h="100%" mih={minHeight}>
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Group gap="xs">
          {icon}
          <Title order={4} fz="md">
            {title}
          </Title>
        </Group>
        {extra}
      </Group>
      {children}
    </Card>
  );
}

const buildColor = { warning: 'yellow', success: 'teal', fail: 'red', aborted: 'gray', queued: 'blue', nobuild: 'gray' } as const;

function BuildBadge({ status }: { status: string | null | undefined }) {
  return <StatusBadge status={status ?? 'NO BUILD'} color={buildColor[buildStatusClass(status)]} label={status ?? 'NO BUILD'} size="xs" />;
}

/** An environment's status in the overview's colours (spec §4: in progress warning, complete success, failed fail). */
function EnvironmentBadge({ status }: { status: string }) {
  return <StatusBadge status={status} label={stackStatusDisplay(status)} size="xs" />;
}

/** What a timeline line says: a build, an environment's deployment, or a service's deploy to a cluster's namespace. */
function timelineLine(e: TimelineEvent) {
  if (e.type === 'build') return { name: e.pipelineName ?? '', title: `${e.pipelineName} · build #${e.buildNumber}`, icon: IconGitMerge };
  if (e.microserviceName)
    return { name: e.microserviceName, title: `${e.microserviceName}:${e.version ?? ''} · deployment to ${e.namespace ?? ''}`, icon: IconBox };
  return { name: e.stageName ?? '', title: `${e.stageName} · deployment`, icon: IconCloudUpload };
}

/** One line of the timeline: a build opens its build page, a deployment its environment, a service's deploy the service there. */
function TimelineItem({ e, onOpen }: { e: TimelineEvent; onOpen: (e: TimelineEvent) => void }) {
  const { name, title, icon: Icon } = timelineLine(e);
  return (
    <UnstyledButton onClick={() => onOpen(e)} aria-label={`Timeline ${e.type} ${name}`} style={{ display: 'block', width: '100%' }}>
      <Group justify="space-between" wrap="nowrap" py={8} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
        <Group gap="sm" wrap="nowrap">
          <Icon size={16} color="var(--mantine-color-dimmed)" />
          <div>
            <Text size="sm" fw={500}>
              {title}
            </Text>
            <RelativeTime date={e.timestamp} size="xs" c="dimmed" />
          </div>
        </Group>
        {e.type === 'build' ? (
          <BuildBadge status={e.status} />
        ) : e.microserviceName ? (
          <ServiceDeployBadge status={e.status} size="xs" />
        ) : (
          <EnvironmentBadge status={e.status} />
        )}
      </Group>
    </UnstyledButton>
  );
}

/** /overview (spec §2.8): Kubernetes summary, environments, pipelines and the project timeline. */
export default function OverviewPage() {
  const project = useCurrentProject();
  const navigate = useNavigate();
  const [timelineTab, setTimelineTab] = useState('all');
  const pipelines = usePipelineList(project?.id, 'latest-build');
  const timeline = useTimeline(project?.id, timelineTab);
  const environments = useStageList(project?.id ?? '');
  useDeploymentUpdates(project?.id);
  useBuildUpdates(project?.id);
  useProjectEvents(project?.id, timelineEvents);
  const openEvent = (e: TimelineEvent) => {
    if (e.type === 'build' && e.pipelineId) return navigate(`/pipelines/${e.pipelineId}/builds/${e.buildId}`);
    if (e.microserviceName && e.clusterId && e.namespace) return navigate(serviceInClusterRoute(e.clusterId, e.namespace, e.microserviceName));
    if (e.type !== 'deployment' || !e.stageId) return;
    if (environments.data && !environments.data.some((s) => s.id === e.stageId)) return toast.error(`Environment ${e.stageName} is no longer available`);
    navigate(`/environments/${e.stageId}`);
  };

  return (
    <Stack gap="lg">
      <PageHeader title="Overview" description={project ? `Everything happening in ${project.name}` : undefined} />

      <KubernetesSummary />

      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Panel
            title="Environments"
            icon={<IconStack2 size={20} color="var(--mantine-color-indigo-6)" />}
            extra={
              <Anchor component={Link} to="/environments" size="sm">
                View all
              </Anchor>
            }
          >
            {environments.isPending ? (
              <Stack gap="xs">
                {[0, 1, 2].map((i) => (
                  <Skeleton key={i} h={28} />
                ))}
              </Stack>
            ) : environments.data?.length ? (
              <Stack gap={0}>
                {environments.data.slice(0, 5).map((s) => (
                  <UnstyledButton key={s.id} onClick={() => navigate(`/environments/${s.id}`)} aria-label={`Environment ${s.name}`}>
                    <Group justify="space-between" py={8} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
                      <Text size="sm" fw={500}>
                        {s.name}
                      </Text>
                      <EnvironmentBadge status={s.status ?? 'NOT_DEPLOYED'} />
                    </Group>
                  </UnstyledButton>
                ))}
              </Stack>
            ) : (
              <EmptyState
                compact
                title="No environments created yet!"
                description="Environments combine components into deployable infrastructure."
                action={
                  <Permitted action="change">
                    {(disabled) => (
                      <Button onClick={() => navigate('/environments/create')} disabled={disabled}>
                        Create Environment
                      </Button>
                    )}
                  </Permitted>
                }
              />
            )}
          </Panel>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Panel
            title="Pipelines"
            icon={<IconGitMerge size={20} color="var(--mantine-color-indigo-6)" />}
            extra={
              <Anchor component={Link} to="/pipelines" size="sm">
                View all
              </Anchor>
            }
          >
            {pipelines.isPending ? (
              <Stack gap="xs">
                {[0, 1, 2].map((i) => (
                  <Skeleton key={i} h={28} />
                ))}
              </Stack>
            ) : pipelines.data?.length ? (
              <Stack gap={0}>
                {pipelines.data.slice(0, 5).map((p) => (
                  <UnstyledButton key={p.id} onClick={() => navigate(`/pipelines/${p.id}/details`)} aria-label={`Pipeline ${p.name}`}>
                    <Group justify="space-between" py={8} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
                      <Text size="sm" fw={500}>
                        {p.name}
                      </Text>
                      <BuildBadge status={p.latestBuild?.status} />
                    </Group>
                  </UnstyledButton>
                ))}
              </Stack>
            ) : (
              <EmptyState
                compact
                title="No pipelines created yet!"
                description="Pipelines build and ship your code from your git repositories."
                action={
                  <Permitted action="change">
                    {(disabled) => (
                      <Button onClick={() => navigate('/pipelines/create')} disabled={disabled}>
                        Create Pipeline
                      </Button>
                    )}
                  </Permitted>
                }
              />
            )}
          </Panel>
        </Grid.Col>
      </Grid>

      <Panel
        title="Timeline"
        icon={<IconTimeline size={20} color="var(--mantine-color-indigo-6)" />}
        extra={
          <SegmentedControl
            size="xs"
            value={timelineTab}
            onChange={setTimelineTab}
            data={[
              { value: 'all', label: 'All' },
              { value: 'deployment', label: 'Deployment' },
              { value: 'build', label: 'Build' },
            ]}
          />
        }
      >
        {timeline.isPending ? (
          <Stack gap="xs">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} h={36} />
            ))}
          </Stack>
        ) : timeline.data?.length ? (
          <ScrollArea.Autosize mah={700}>
            {timeline.data.map((e) => (
              <TimelineItem key={`${e.type}-${e.buildId ?? e.deploymentId}`} e={e} onOpen={openEvent} />
            ))}
          </ScrollArea.Autosize>
        ) : (
          <EmptyState compact title={NO_DATA} icon={<IconActivity size={20} />} description="Builds and deployments of this project will appear here." />
        )}
      </Panel>
    </Stack>
  );
}
