import { Badge, Card, Group, Text, Tooltip } from '@mantine/core';
import type { ScheduleRun } from '@gantry/contracts';
import { DataTable, type Column } from '../../../ui/DataTable';
import { RelativeTime } from '../../../ui/RelativeTime';
import { BADGE_FIT } from '../../../ui/badge-fit';

const TRIGGER: Record<ScheduleRun['trigger'], string> = { SCHEDULE: 'On schedule', MANUAL: 'By hand', RDS_RESTOP: 'RDS stopped again' };
const STATUS_COLOR: Record<ScheduleRun['status'], string> = { RUNNING: 'blue', SUCCEEDED: 'teal', FAILED: 'red' };

const resourcesOf = (r: ScheduleRun) => [...r.resources.ec2, ...r.resources.asg, ...r.resources.rds];

/** The schedule's runs (beyond the spec): each start or stop, when, what it touched, and how it ended. */
export function ScheduleRuns({ runs, loading }: { runs: ScheduleRun[] | undefined; loading: boolean }) {
  const columns: Column<ScheduleRun>[] = [
    { key: 'when', header: 'When', width: 150, render: (r) => <RelativeTime date={r.startedAt} /> },
    {
      key: 'action',
      header: 'Action',
      width: 150,
      render: (r) => (
        <Group gap={6} wrap="nowrap">
          <Badge size="sm" variant="light" color={r.action === 'start' ? 'teal' : 'orange'} radius="sm" {...BADGE_FIT}>
            {r.action.toUpperCase()}
          </Badge>
          <Text size="xs" c="dimmed">
            {TRIGGER[r.trigger]}
          </Text>
        </Group>
      ),
    },
    {
      key: 'resources',
      header: 'Resources',
      render: (r) => {
        const ids = resourcesOf(r);
        return (
          <Tooltip label={ids.join(', ') || 'none'} multiline maw={380} withArrow disabled={ids.length === 0}>
            <Text size="xs" ff="monospace" truncate="end" maw={320} data-testid="run-resources">
              {ids.length ? ids.join(', ') : 'none matched'}
            </Text>
          </Tooltip>
        );
      },
    },
    {
      key: 'result',
      header: 'Result',
      width: 260,
      render: (r) => (
        <Group gap={6} wrap="nowrap">
          <Badge size="sm" variant="light" color={STATUS_COLOR[r.status]} radius="sm" data-testid="run-status" {...BADGE_FIT}>
            {r.status}
          </Badge>
          {r.error && (
            <Text size="xs" c="red" truncate="end" maw={180} title={r.error}>
              {r.error}
            </Text>
          )}
        </Group>
      ),
    },
  ];
  return (
    <Card withBorder radius="md" padding={0}>
      <Group justify="space-between" p="md" pb={0}>
        <Text fw={650}>Runs</Text>
        <Text size="xs" c="dimmed">
          The latest 50 starts and stops
        </Text>
      </Group>
      <DataTable
        columns={columns}
        rows={runs}
        rowKey={(r) => r.id}
        loading={loading}
        emptyText="No runs yet: the schedule has not started or stopped anything"
        data-testid="schedule-runs"
      />
    </Card>
  );
}
