import { ActionIcon, Anchor, Button, Card, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCircleCheck, IconCircleX, IconClockHour4, IconGitBranch, IconPencil, IconPercentage, IconPlus, IconRocket, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { matchesSearch, successRate, type Pipeline } from '@gantry/contracts';
import { errorMessage, isPlanLimit } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { useCurrentProject } from '../../../api/session';
import { UPGRADE_PATH } from '../../../api/toast';
import { DataTable, type Column } from '../../../ui/DataTable';
import { EmptyState } from '../../../ui/EmptyState';
import { PageHeader } from '../../../ui/PageHeader';
import { Permitted } from '../../../ui/Permitted';
import { RelativeTime } from '../../../ui/RelativeTime';
import { SearchInput } from '../../../ui/SearchInput';
import { useBuildLimitations } from '../api/get-build-limitations';
import { usePipelineMetrics } from '../api/get-pipeline-metrics';
import { useGitAccounts } from '../../git-accounts';
import { usePipelines } from '../api/list-pipelines';
import { BuildStatusBadge } from '../components/BuildStatusBadge';
import { CommitCell } from '../components/CommitCell';
import { DeletePipelineModal } from '../components/DeletePipelineModal';
import { MetricTiles } from '../components/MetricTiles';
import { ReportsCell } from '../components/ReportsCell';
import { UpgradeModal } from '../components/UpgradeModal';
import { useBuildUpdates } from '../hooks/use-build-updates';
import { useListErrorToast } from '../hooks/use-list-error-toast';
import { repositoryName } from '../lib/commit';

export const PIPELINE_MANAGER_INTRO =
  'Build, test and ship your code with pipelines connected to your Git repositories. Every push can trigger a build; follow its stages, live logs and artifacts from one place.';

/** /pipelines (spec §2): tiles, search, the pipeline table refreshed every 10 s, the Pipeline Manager intro when empty. */
export default function PipelinesPage() {
  const projectId = useCurrentProject()?.id ?? '';
  const pipelines = usePipelines(projectId);
  const blocked = isPlanLimit(pipelines.error);
  const metrics = usePipelineMetrics(projectId, undefined, !blocked);
  const limits = useBuildLimitations(projectId, { enabled: !blocked, poll: true });
  const accounts = useGitAccounts(projectId);
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<Pipeline | null>(null);
  useBuildUpdates(projectId || undefined);
  useListErrorToast(pipelines.error);

  const providerOf = useMemo(() => new Map((accounts.data ?? []).map((a) => [a.gitAccountId, a.type])), [accounts.data]);
  const rows = useMemo(() => (pipelines.data ?? []).filter((p) => matchesSearch(search, p.name)), [pipelines.data, search]);
  const isEmpty = blocked || (pipelines.isSuccess && pipelines.data.length === 0);

  const m = metrics.data;
  const tiles = [
    { label: 'Successful builds', value: m?.successfulExecutions ?? 0, icon: <IconCircleCheck size={22} />, color: 'teal' },
    { label: 'Failed builds', value: m?.failedExecutions ?? 0, icon: <IconCircleX size={22} />, color: 'red' },
    {
      label: 'Success rate',
      value: `${successRate(m ?? { successfulExecutions: 0, failedExecutions: 0 })}%`,
      icon: <IconPercentage size={22} />,
      color: 'indigo',
    },
    {
      label: 'Build minutes spent',
      // Minutes used this month (the server's usedBuildMinutes) over the plan's limit, 2 decimals (spec §9).
      value: limits.data ? `${limits.data.usedBuildMinutes.toFixed(2)}/${limits.data.buildMinutes}` : '—',
      unit: limits.data ? 'mins' : undefined,
      icon: <IconClockHour4 size={22} />,
      color: 'grape',
    },
  ];

  const mayChange = useProjectPermission().can('change');
  const columns: Column<Pipeline>[] = [
    {
      key: 'pipeline',
      header: 'Pipeline',
      render: (p) => (
        <Stack gap={2}>
          <Anchor component={Link} to={`/pipelines/${p.id}/details`} fw={600} size="sm" c="dark">
            {p.name}
          </Anchor>
          <Group gap={4} wrap="nowrap">
            <IconGitBranch size={12} color="var(--mantine-color-dimmed)" />
            <Text size="xs" c="dimmed" truncate="end" maw={280}>
              {repositoryName(p.repositoryUrl)} · {p.latestBuild?.branch ?? p.branchFilter}
            </Text>
          </Group>
        </Stack>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (p) => (
        <Stack gap={2} align="flex-start">
          <BuildStatusBadge status={p.latestBuild?.status} to={p.latestBuild ? `/pipelines/${p.id}/builds/${p.latestBuild.id}` : undefined} />
          {p.latestBuild?.startDate && <RelativeTime date={p.latestBuild.stopDate ?? p.latestBuild.startDate} size="xs" />}
        </Stack>
      ),
    },
    {
      key: 'commit',
      header: 'Commit',
      render: (p) => (
        <CommitCell commit={p.latestBuild?.metadata.commit} build={p.latestBuild} repositoryUrl={p.repositoryUrl} provider={providerOf.get(p.gitAccountId)} />
      ),
    },
    {
      key: 'reports',
      header: 'Reports',
      render: (p) => <ReportsCell build={p.latestBuild} to={`/pipelines/${p.id}/builds/${p.latestBuild?.id}`} label={`Reports of ${p.name}`} />,
    },
    ...(!mayChange
      ? []
      : ([
          {
            key: 'edit',
            header: '',
            width: 48,
            align: 'right',
            render: (p) => (
              <Tooltip label="Edit" withArrow>
                <ActionIcon component={Link} to={`/pipelines/${p.id}/edit`} variant="subtle" color="gray" aria-label={`Edit pipeline ${p.name}`}>
                  <IconPencil size={16} />
                </ActionIcon>
              </Tooltip>
            ),
          },
          {
            key: 'delete',
            header: '',
            width: 48,
            align: 'right',
            render: (p) => (
              <Tooltip label="Delete" withArrow>
                <ActionIcon variant="subtle" color="red" aria-label={`Delete pipeline ${p.name}`} onClick={() => setDeleting(p)}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            ),
          },
        ] satisfies Column<Pipeline>[])),
  ];

  return (
    <Stack gap="lg">
      <PageHeader title="Pipelines" description="Build pipelines connected to your Git repositories" actions={!isEmpty && <CreatePipelineButton />} />
      <MetricTiles tiles={tiles} loading={!blocked && (metrics.isPending || limits.isPending)} />
      <Card withBorder radius="md" padding={0}>
        {isEmpty ? (
          <EmptyState
            title="Pipeline Manager"
            icon={<IconRocket size={28} stroke={1.5} />}
            color="indigo"
            description={PIPELINE_MANAGER_INTRO}
            action={
              blocked ? (
                <Button component={Link} to={UPGRADE_PATH} color="violet" variant="light">
                  Upgrade Plan
                </Button>
              ) : (
                <CreatePipelineButton />
              )
            }
          />
        ) : (
          <>
            <Group justify="space-between" p="md">
              <SearchInput value={search} onChange={setSearch} placeholder="Search pipelines..." label="Search pipelines" />
              {pipelines.isFetching && !pipelines.isPending && (
                <Text size="xs" c="dimmed">
                  Refreshing…
                </Text>
              )}
            </Group>
            {pipelines.isError && !pipelines.data ? (
              <Text c="red" size="sm" p="md">
                {errorMessage(pipelines.error)}
              </Text>
            ) : (
              <DataTable columns={columns} rows={rows} rowKey={(p) => p.id} loading={pipelines.isPending && Boolean(projectId)} data-testid="pipelines-table" />
            )}
          </>
        )}
      </Card>
      <UpgradeModal opened={blocked} message={blocked ? errorMessage(pipelines.error) : undefined} />
      <DeletePipelineModal projectId={projectId} pipeline={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

function CreatePipelineButton() {
  return (
    <Permitted action="change">
      {(disabled) =>
        disabled ? (
          <Button disabled leftSection={<IconPlus size={16} />}>
            Create Pipeline
          </Button>
        ) : (
          <Button component={Link} to="/pipelines/create" leftSection={<IconPlus size={16} />}>
            Create Pipeline
          </Button>
        )
      }
    </Permitted>
  );
}
