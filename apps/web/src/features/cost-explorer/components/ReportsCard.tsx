import { ActionIcon, Badge, Button, Card, Group, Menu, Text } from '@mantine/core';
import { IconDots, IconMail, IconPencil, IconPlus, IconSend, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Report } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { DataTable, type Column } from '../../../ui/DataTable';
import { formatDate } from '../../../ui/dayjs';
import { useReportMutations, useReports } from '../api/cost';
import { LastSendCell, LastSendError } from './LastSend';

export const reportEditPath = (id: string) => `/tools/cost-explorer/reports/edit?id=${encodeURIComponent(id)}`;

/**
 * What the card offers: its own Create Report only beside a report (with none, the page's header offers it, and two
 * buttons of one name read as two things), and a hint to create one only to whom may.
 */
export const reportsCardOffer = (canWrite: boolean, reports: number) => ({
  create: canWrite && reports > 0,
  emptyText: canWrite ? 'No reports yet: create one to get the costs by e-mail' : 'No reports yet.',
});

/** The project's cost reports: who gets them and when, with Update, Send now (beyond the spec) and Delete. */
export function ReportsCard({ projectId, canWrite }: { projectId: string; canWrite: boolean }) {
  const reports = useReports(projectId);
  const m = useReportMutations(projectId);
  const navigate = useNavigate();
  const offer = reportsCardOffer(canWrite, reports.data?.length ?? 0);
  const [removing, setRemoving] = useState<Report | null>(null);

  // The mails are queued when the call answers: whether they were delivered shows on the row (Sending…, then the
  // date or Send failed), so the toast says they are on their way rather than 'sent'.
  const send = (r: Report) =>
    m.send.mutate(r.id, { onSuccess: (x) => toast.success(`Sending report ${r.reportName} to ${x.sentTo.join(', ')}.`), onError: (e) => toast.apiError(e) });

  const columns: Column<Report>[] = [
    {
      key: 'name',
      header: 'Report',
      render: (r) => (
        <div>
          <Text size="sm" fw={600} data-testid="report-name">
            {r.reportName}
          </Text>
          <Text size="xs" c="dimmed">
            {r.awsAccountIds.length} account{r.awsAccountIds.length === 1 ? '' : 's'} · {r.regions.join(', ')}
            {r.costAllocationTag ? ` · by ${r.costAllocationTag}` : ''}
          </Text>
          <LastSendError report={r} />
        </div>
      ),
    },
    {
      key: 'granularity',
      header: 'Period',
      width: 110,
      render: (r) => (
        <Badge variant="light" color={r.granularity === 'WEEKLY' ? 'cyan' : 'indigo'} radius="sm">
          {r.granularity}
        </Badge>
      ),
    },
    {
      key: 'to',
      header: 'Recipients',
      width: 230,
      render: (r) => (
        <Text size="xs" truncate="end" maw={220} title={r.emails.join(', ')}>
          {r.emails.slice(0, 2).join(', ')}
          {r.emails.length > 2 ? ` +${r.emails.length - 2}` : ''}
        </Text>
      ),
    },
    {
      key: 'sent',
      header: 'Last sent / next',
      width: 180,
      render: (r) => (
        <div>
          <LastSendCell report={r} />
          <Text size="xs" c="dimmed">
            next {formatDate(r.nextSendAt)}
          </Text>
        </div>
      ),
    },
  ];
  if (canWrite)
    columns.push({
      key: 'actions',
      header: '',
      width: 60,
      align: 'right',
      render: (r) => (
        <Menu position="bottom-end" withinPortal shadow="md">
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions of report ${r.reportName}`}>
              <IconDots size={16} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => navigate(reportEditPath(r.id))}>
              Update Report
            </Menu.Item>
            <Menu.Item leftSection={<IconSend size={14} />} onClick={() => send(r)} disabled={m.send.isPending}>
              Send now
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => setRemoving(r)}>
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      ),
    });

  return (
    <Card withBorder radius="md" padding={0} data-testid="reports-card">
      <Group justify="space-between" p="md" pb={0}>
        <Group gap="xs">
          <IconMail size={18} />
          <Text fw={650}>Reports</Text>
        </Group>
        {offer.create && (
          <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} component={Link} to="/tools/cost-explorer/reports/create">
            Create Report
          </Button>
        )}
      </Group>
      <DataTable
        columns={columns}
        rows={reports.data}
        rowKey={(r) => r.id}
        loading={reports.isPending && Boolean(projectId)}
        emptyText={offer.emptyText}
        data-testid="reports-table"
      />
      <ConfirmModal
        opened={Boolean(removing)}
        danger
        title="Delete report"
        confirmLabel="Delete"
        loading={m.remove.isPending}
        message={`Are you sure you want to delete the report "${removing?.reportName}"? Its recipients will no longer receive it.`}
        onConfirm={() =>
          removing &&
          m.remove.mutate(removing.id, {
            onSuccess: () => (toast.success(`Deleted report ${removing.reportName}.`), setRemoving(null)),
            onError: (e) => toast.apiError(e),
          })
        }
        onCancel={() => setRemoving(null)}
      />
    </Card>
  );
}
