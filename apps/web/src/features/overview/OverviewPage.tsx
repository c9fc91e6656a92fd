import { Anchor, Button, Card, Grid, Group, Progress, Select, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { IconActivity, IconGitMerge, IconServer2, IconStack2, IconTimeline } from '@tabler/icons-react';
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

/**
 * /overview (spec §2.8): Kubernetes summary, environments, pipelines and the project timeline.
 * The data sources of those areas arrive with their releases; until then each panel shows its empty state.
 */
export default function OverviewPage() {
  const project = useCurrentProject();
  const navigate = useNavigate();
  const [timelineTab, setTimelineTab] = useState('all');

  return (
    <Stack gap="lg">
      <PageHeader title="Overview" description={project ? `Everything happening in ${project.name}` : undefined} />

      <Panel
        title="Kubernetes"
        icon={<IconServer2 size={20} color="var(--mantine-color-indigo-6)" />}
        extra={<Select aria-label="Cluster" placeholder="Select a cluster" data={[]} disabled w={220} size="xs" />}
      >
        <Grid gutter="lg" mb="md">
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Text size="xs" fw={600} c="dimmed" mb={6}>
              DEPLOYMENTS
            </Text>
            <Progress value={0} size="lg" radius="sm" />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Text size="xs" fw={600} c="dimmed" mb={6}>
              PODS
            </Text>
            <Progress value={0} size="lg" radius="sm" color="teal" />
          </Grid.Col>
        </Grid>
        <EmptyState
          compact
          title="No clusters connected yet!"
          description="Connect a Kubernetes cluster to follow its services and pods here."
          action={<Button onClick={() => navigate('/kubernetes/clusters')}>Connect Kubernetes</Button>}
        />
      </Panel>

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
            <EmptyState
              compact
              title="No environments created yet!"
              description="Environments combine components into deployable infrastructure."
              action={<Button onClick={() => navigate('/environments/create')}>Create Environment</Button>}
            />
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
            <EmptyState
              compact
              title="No pipelines created yet!"
              description="Pipelines build and ship your code from your git repositories."
              action={<Button onClick={() => navigate('/pipelines/create')}>Create Pipeline</Button>}
            />
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
        <EmptyState compact title={NO_DATA} icon={<IconActivity size={20} />} description="Builds and deployments of this project will appear here." />
      </Panel>
    </Stack>
  );
}
