import { Anchor, Card, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCircleCheck, IconCircleX, IconClockHour4, IconPercentage } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { msToMinutes, successRate, type Build } from '@gantry/contracts';
import { useCurrentProject } from '../../../api/session';
import { DataTable, type Column } from '../../../ui/DataTable';
import { RelativeTime } from '../../../ui/RelativeTime';
import { SearchInput } from '../../../ui/SearchInput';
import { usePipelineMetrics } from '../api/get-pipeline-metrics';
import { usePipelineBuilds } from '../api/list-pipeline-builds';
import { useListErrorToast } from '../hooks/use-list-error-toast';
import { buildNumberText, elapsedMs, formatHms } from '../lib/format';
import { BuildStatusBadge } from './BuildStatusBadge';
import { CommitCell } from './CommitCell';
import { ReportsCell } from './ReportsCell';
import { MetricTiles } from './MetricTiles';

/** The builds tab (spec §2): tiles, search by build id, infinitely scrolling executions (10 per page). */
export function BuildsTab({ pipelineId, repositoryUrl, provider }: { pipelineId: string; repositoryUrl: string; provider?: string | null }) {
  const projectId = useCurrentProject()?.id ?? '';
  const metrics = usePipelineMetrics(projectId, pipelineId);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const builds = usePipelineBuilds(projectId, pipelineId, debounced);
  const sentinel = useRef<HTMLDivElement>(null);
  useListErrorToast(builds.error);

  const rows = useMemo(() => builds.data?.pages.flatMap((p) => p.builds) ?? [], [builds.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = builds;

  // Infinite scroll: the next page loads when the end of the table comes into view.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasNextPage) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '200px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const m = metrics.data ?? { successfulExecutions: 0, failedExecutions: 0, buildTime: 0 };
  const tiles = [
    { label: 'Successful builds', value: m.successfulExecutions, icon: <IconCircleCheck size={22} />, color: 'teal' },
    { label: 'Failed builds', value: m.failedExecutions, icon: <IconCircleX size={22} />, color: 'red' },
    { label: 'Success rate', value: `${successRate(m)}%`, icon: <IconPercentage size={22} />, color: 'indigo' },
    { label: 'Pipeline build time in mins', value: msToMinutes(m.buildTime), icon: <IconClockHour4 size={22} />, color: 'grape' },
  ];

  const buildLink = (b: Build) => `/pipelines/${pipelineId}/builds/${b.id}`;
  const columns: Column<Build>[] = [
    { key: 'status', header: 'Status', width: 150, render: (b) => <BuildStatusBadge status={b.status} to={buildLink(b)} /> },
    {
      key: 'execution',
      header: 'Execution',
      render: (b) => (
        <Stack gap={2}>
          <Group gap={6} wrap="nowrap">
            <Anchor component={Link} to={buildLink(b)} ff="monospace" size="sm" fw={600}>
              {buildNumberText(b.id)}
            </Anchor>
            <Text size="xs" c="dimmed">
              #{b.number} · {b.branch}
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap">
            {b.startDate ? (
              <RelativeTime date={b.startDate} size="xs" />
            ) : (
              <Text size="xs" c="dimmed">
                Not started
              </Text>
            )}
            <Text size="xs" c="dimmed" ff="monospace">
              {formatHms(elapsedMs(b.startDate, b.stopDate))}
            </Text>
          </Group>
        </Stack>
      ),
    },
    { key: 'commit', header: 'Commit', render: (b) => <CommitCell commit={b.metadata.commit} build={b} repositoryUrl={repositoryUrl} provider={provider} /> },
    { key: 'reports', header: 'Reports', render: (b) => <ReportsCell build={b} to={buildLink(b)} /> },
  ];

  return (
    <Stack gap="md" data-testid="builds-tab">
      <MetricTiles tiles={tiles} loading={metrics.isPending} />
      <Card withBorder radius="md" padding={0}>
        <Group justify="space-between" p="md">
          <SearchInput value={search} onChange={setSearch} placeholder="Search by build id..." label="Search builds" />
        </Group>
        <DataTable columns={columns} rows={rows} rowKey={(b) => b.id} loading={builds.isPending} data-testid="builds-table" />
        <div ref={sentinel} />
        {isFetchingNextPage && (
          <Center py="md">
            <Loader size="sm" />
          </Center>
        )}
      </Card>
    </Stack>
  );
}
