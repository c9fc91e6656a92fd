import { Badge, Card, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import type { SubscriptionHistoryEntry } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { isPlanLimit } from '../../../api/errors';
import { DataTable, type Column } from '../../../ui/DataTable';
import { formatDate } from '../../../ui/dayjs';
import { useSubscriptionHistory } from '../api/get-subscription-history';

/** How each subscription came about, in words. */
const TYPE_LABELS: Record<string, string> = {
  TRIAL: 'Trial',
  PROMO: 'Promo code',
  APPSUMO: 'AppSumo',
  PAID: 'Instance admin',
  CARD: 'Card payment',
};

/** The plan by name, how it came, and when: the subscription's own id means nothing to a reader. */
const columns: Column<SubscriptionHistoryEntry>[] = [
  {
    key: 'plan',
    header: 'Plan',
    render: (h) => (
      <Text size="sm" fw={600}>
        {h.planName}
      </Text>
    ),
  },
  {
    key: 'type',
    header: 'Type',
    render: (h) => (
      <Badge variant="light" radius="sm">
        {TYPE_LABELS[h.type] ?? h.type}
      </Badge>
    ),
  },
  { key: 'start', header: 'Start date', render: (h) => <Text size="sm">{formatDate(h.startDate)}</Text> },
  { key: 'end', header: 'Expiration date', render: (h) => <Text size="sm">{formatDate(h.expirationDate)}</Text> },
];

/** The project's subscription history; a failure toasts 'Error while getting payment history'. */
export function SubscriptionHistoryCard({ projectId }: { projectId: string }) {
  const history = useSubscriptionHistory(projectId);

  useEffect(() => {
    if (history.isError && !isPlanLimit(history.error)) toast.error('Error while getting payment history');
  }, [history.isError, history.error]);

  return (
    <Card withBorder radius="md" padding={0}>
      <Title order={4} fz="md" p="lg" pb="xs">
        Subscription history
      </Title>
      <DataTable
        data-testid="subscription-history"
        columns={columns}
        rows={history.data ?? []}
        rowKey={(h) => `${h.subscriptionId}-${h.startDate}`}
        loading={history.isPending}
      />
    </Card>
  );
}
