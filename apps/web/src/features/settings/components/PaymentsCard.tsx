import { Card, Text, Title } from '@mantine/core';
import type { Payment } from '@gantry/contracts';
import { DataTable, type Column } from '../../../ui/DataTable';
import { formatDate } from '../../../ui/dayjs';
import { usePayments } from '../api/get-payments';

const money = (p: Payment) => new Intl.NumberFormat('en-US', { style: 'currency', currency: p.currency }).format(p.amount);

const columns: Column<Payment>[] = [
  { key: 'date', header: 'Date', render: (p) => <Text size="sm">{formatDate(p.paidAt)}</Text> },
  {
    key: 'plan',
    header: 'Plan',
    render: (p) => (
      <Text size="sm" fw={600}>
        {p.planName}
      </Text>
    ),
  },
  { key: 'amount', header: 'Amount', align: 'right', render: (p) => <Text size="sm">{money(p)}</Text> },
];

/** Card payments the provider confirmed (invoices paid, the special deal). */
export function PaymentsCard({ projectId }: { projectId: string }) {
  const payments = usePayments(projectId);
  return (
    <Card withBorder radius="md" padding={0}>
      <Title order={4} fz="md" p="lg" pb="xs">
        Payments
      </Title>
      <DataTable data-testid="payments" columns={columns} rows={payments.data ?? []} rowKey={(p) => p.id} loading={payments.isPending} />
    </Card>
  );
}
