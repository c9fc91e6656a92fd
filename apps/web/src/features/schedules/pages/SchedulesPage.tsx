import { ActionIcon, Anchor, Button, Group, Menu, Stack, Switch, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconClockPause, IconDots, IconPencil, IconPlayerPlay, IconPlayerStop, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { matchesSearch, scheduleActionToast, scheduleStateToast, type Schedule } from '@gantry/contracts';
import { errorMessage, isPlanLimit } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { DataTable, type Column } from '../../../ui/DataTable';
import { PageHeader } from '../../../ui/PageHeader';
import { SearchableTableCard } from '../../../ui/SearchableTableCard';
import { UpgradePrompt } from '../../../ui/UpgradePrompt';
import { useErrorToast } from '../../../ui/use-error-toast';
import { useAwsAccounts } from '../../cloud-accounts';
import { useScheduleMutations, useSchedules } from '../api/schedules';
import { DisableScheduleModal } from '../components/DisableScheduleModal';
import { ScheduleStateBadge } from '../components/ScheduleStateBadge';
import { describeSchedule } from '../lib/describe';

const editPath = (id: string) => `/tools/schedules/${encodeURIComponent(id)}/edit`;
type Confirm = { kind: 'delete' | 'start' | 'stop'; schedule: Schedule } | null;

/**
 * /tools/schedules (spec §2.10): the project's saving schedules, ACTIVE or NOT ACTIVE, with enable/disable (disabling
 * offers to start the resources), Start All / Stop All for enabled ones, edit and delete. Create Schedule is disabled
 * when the plan blocks it (402).
 */
export default function SchedulesPage() {
  const project = useCurrentProject();
  const projectId = project?.id ?? '';
  const canWrite = useProjectPermission().can('change');
  const navigate = useNavigate();
  const schedules = useSchedules(projectId);
  const accounts = useAwsAccounts(projectId);
  const m = useScheduleMutations(projectId);
  const [search, setSearch] = useState('');
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [disabling, setDisabling] = useState<Schedule | null>(null);
  useErrorToast(schedules.error);

  const offset = new Date().getTimezoneOffset();
  const blocked = isPlanLimit(schedules.error) ? errorMessage(schedules.error) : null;
  const isEmpty = schedules.isSuccess && schedules.data.length === 0;
  const rows = (schedules.data ?? []).filter((s) => matchesSearch(search, s.name));
  const accountName = (id: string) => accounts.data?.find((a) => a.id === id)?.accountName ?? id;

  const enable = (s: Schedule) =>
    m.setState.mutate(
      { id: s.id, body: { state: 'ENABLED' } },
      { onSuccess: () => toast.success(scheduleStateToast('ENABLED')), onError: (e) => toast.apiError(e) },
    );
  const disable = (startResources: boolean) => {
    if (!disabling) return;
    m.setState.mutate(
      { id: disabling.id, body: { state: 'DISABLED', startResources } },
      {
        onSuccess: () => {
          toast.success(scheduleStateToast('DISABLED'));
          if (startResources) toast.success(scheduleActionToast('start'));
          setDisabling(null);
        },
        onError: (e) => toast.apiError(e),
      },
    );
  };
  const runConfirm = () => {
    if (!confirm) return;
    const { kind, schedule } = confirm;
    const done = { onSuccess: () => setConfirm(null), onError: (e: unknown) => toast.apiError(e) };
    if (kind === 'delete') m.remove.mutate(schedule.id, { ...done, onSuccess: () => (toast.success(`Deleted schedule ${schedule.name}.`), setConfirm(null)) });
    else m.act.mutate({ id: schedule.id, action: kind }, { ...done, onSuccess: () => (toast.success(scheduleActionToast(kind)), setConfirm(null)) });
  };

  const columns: Column<Schedule>[] = [
    {
      key: 'name',
      header: 'Schedule',
      render: (s) => (
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={34} radius="md" variant="light" color="teal">
            <IconClockPause size={19} />
          </ThemeIcon>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Anchor component={Link} to={editPath(s.id)} size="sm" fw={600} c="var(--mantine-color-text)" data-testid="schedule-name">
              {s.name}
            </Anchor>
            <Text size="xs" c="dimmed">
              {describeSchedule(s, offset)}
            </Text>
          </Stack>
        </Group>
      ),
    },
    {
      key: 'where',
      header: 'Account',
      width: 180,
      render: (s) => (
        <Stack gap={0}>
          <Text size="sm">{accountName(s.awsAccountId)}</Text>
          <Text size="xs" c="dimmed">
            {s.awsRegion}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'tag',
      header: 'Resources',
      width: 220,
      render: (s) => (
        <Stack gap={0}>
          {/* picked resources carry a generated tag value that means nothing to a reader: say what they are */}
          {s.selectBy === 'RESOURCES' && <Text size="sm">Picked resources</Text>}
          <Text size="xs" ff="monospace" c="dimmed" truncate="end" maw={210} title={`${s.resourcesTagKey} = ${s.resourcesTagValue}`} data-testid="schedule-tag">
            {s.resourcesTagKey} = {s.resourcesTagValue}
          </Text>
        </Stack>
      ),
    },
    { key: 'state', header: 'State', width: 140, render: (s) => <ScheduleStateBadge state={s.state} /> },
  ];
  if (canWrite) {
    columns.push({
      key: 'actions',
      header: 'Actions',
      align: 'right',
      width: 150,
      render: (s) => (
        <Group gap={6} justify="flex-end" wrap="nowrap">
          <Tooltip label={s.state === 'ENABLED' ? 'Disable' : 'Enable'} withArrow>
            <Switch
              checked={s.state === 'ENABLED'}
              aria-label={`${s.state === 'ENABLED' ? 'Disable' : 'Enable'} schedule ${s.name}`}
              onChange={() => (s.state === 'ENABLED' ? setDisabling(s) : enable(s))}
              disabled={m.setState.isPending}
            />
          </Tooltip>
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Actions of schedule ${s.name}`}>
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => navigate(editPath(s.id))}>
                Edit
              </Menu.Item>
              <Menu.Item leftSection={<IconPlayerPlay size={14} />} disabled={s.state !== 'ENABLED'} onClick={() => setConfirm({ kind: 'start', schedule: s })}>
                Start All
              </Menu.Item>
              <Menu.Item leftSection={<IconPlayerStop size={14} />} disabled={s.state !== 'ENABLED'} onClick={() => setConfirm({ kind: 'stop', schedule: s })}>
                Stop All
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => setConfirm({ kind: 'delete', schedule: s })}>
                Delete
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      ),
    });
  }

  const createButton = canWrite && (
    <Tooltip label="Your plan does not include saving schedules: upgrade to create one" disabled={!blocked} withArrow multiline maw={280}>
      <span>
        <Button leftSection={<IconPlus size={16} />} onClick={() => navigate('/tools/schedules/create')} disabled={Boolean(blocked)}>
          Create Schedule
        </Button>
      </span>
    </Tooltip>
  );

  return (
    <Stack gap="lg">
      <PageHeader title="Saving Schedules" description="Put non-production resources to sleep outside working hours" actions={!isEmpty && createButton} />
      {blocked && <UpgradePrompt message={blocked} />}
      <SearchableTableCard
        empty={
          isEmpty && {
            title: 'No saving schedules yet',
            icon: <IconClockPause size={28} stroke={1.5} />,
            color: 'teal',
            description:
              'Pick EC2 instances, Auto Scaling groups and RDS databases, or a tag, and the hours they should be awake. Gantry stops and starts them on time.',
            action: createButton || undefined,
          }
        }
        noun={['schedule', 'schedules']}
        search={{ value: search, onChange: setSearch }}
        total={schedules.data?.length}
        error={schedules.isError && !schedules.data ? { message: errorMessage(schedules.error), planLimit: Boolean(blocked) } : null}
      >
        <DataTable columns={columns} rows={rows} rowKey={(s) => s.id} loading={schedules.isPending && Boolean(projectId)} data-testid="schedules-table" />
      </SearchableTableCard>
      <DisableScheduleModal schedule={disabling} busy={m.setState.isPending} onDisable={disable} onClose={() => setDisabling(null)} />
      <ConfirmModal
        opened={Boolean(confirm)}
        danger={confirm?.kind === 'delete'}
        loading={m.remove.isPending || m.act.isPending}
        title={confirm?.kind === 'delete' ? 'Delete schedule' : confirm?.kind === 'start' ? 'Start All' : 'Stop All'}
        confirmLabel={confirm?.kind === 'delete' ? 'Delete' : confirm?.kind === 'start' ? 'Start All' : 'Stop All'}
        message={
          confirm?.kind === 'delete'
            ? `Are you sure you want to delete the schedule "${confirm.schedule.name}"? Its resources stay as they are and are no longer stopped or started.`
            : `Do you want to ${confirm?.kind} every resource of "${confirm?.schedule.name}" now? You can ${confirm?.kind === 'start' ? 'stop' : 'start'} them again at any time.`
        }
        onConfirm={runConfirm}
        onCancel={() => setConfirm(null)}
      />
    </Stack>
  );
}
