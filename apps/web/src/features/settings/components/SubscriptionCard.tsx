import { Badge, Card, Divider, Group, List, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { describeLimitations } from '@gantry/contracts';
import { errorMessage } from '../../../api/errors';
import { toast } from '../../../api/toast';
import { formatDate } from '../../../ui/dayjs';
import { Permitted } from '../../../ui/Permitted';
import { UpgradePrompt, usePlanGate } from '../../../ui/UpgradePrompt';
import { useSubscription } from '../api/get-subscription';
import { useSetRecurrency } from '../api/set-recurrency';

const statusColor: Record<string, string> = { ACTIVE: 'teal', TRIAL: 'blue', EXPIRED: 'red' };

/** The current subscription: plan, status, expiration date, what it includes, and the recurring payment toggle. */
export function SubscriptionCard({ projectId }: { projectId: string }) {
  const subscription = useSubscription(projectId);
  const recurrency = useSetRecurrency(projectId);
  const gate = usePlanGate(subscription.error);

  const toggle = (enabled: boolean) =>
    recurrency.mutate(enabled, {
      onSuccess: () => toast.success(enabled ? 'You have enabled subscription recurrency' : 'You have disabled subscription recurrency'),
      onError: (e) => toast.apiError(e),
    });

  const s = subscription.data;
  return (
    <Card withBorder radius="md" padding="lg" h="100%">
      <Title order={4} fz="md" mb="md">
        Current subscription
      </Title>
      {gate.limited ? (
        <UpgradePrompt message={gate.message} />
      ) : subscription.isPending ? (
        <Stack>
          <Skeleton height={20} width="50%" />
          <Skeleton height={14} />
          <Skeleton height={14} width="70%" />
        </Stack>
      ) : subscription.isError || !s ? (
        <Text c="red" size="sm">
          {errorMessage(subscription.error)}
        </Text>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between">
            <Text fw={700} size="lg" data-testid="subscription-plan">
              {s.plan.name}
            </Text>
            <Badge color={statusColor[s.status] ?? 'gray'} variant="light">
              {s.status}
            </Badge>
          </Group>
          <Group gap="xl">
            <div>
              <Text size="xs" c="dimmed">
                Expiration date
              </Text>
              <Text size="sm" fw={500} data-testid="subscription-expiration">
                {formatDate(s.expirationDate)}
              </Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                Price
              </Text>
              <Text size="sm" fw={500}>
                ${s.plan.price} / {s.plan.frequency === 'yearly' ? 'month, billed yearly' : 'month'}
              </Text>
            </div>
          </Group>
          <Divider my={4} />
          <Text size="xs" c="dimmed" fw={600} tt="uppercase">
            Included
          </Text>
          <List size="sm" spacing={4}>
            {describeLimitations(s.limitations).map((l) => (
              <List.Item key={l}>{l}</List.Item>
            ))}
          </List>
          <Divider my={4} />
          <Permitted action="manageProject">
            {(refused) => (
              <Switch
                label="Recurring payment"
                description="Renew the subscription automatically when it expires."
                checked={s.recurringEnabled}
                disabled={refused || recurrency.isPending}
                onChange={(e) => toggle(e.currentTarget.checked)}
              />
            )}
          </Permitted>
        </Stack>
      )}
    </Card>
  );
}
