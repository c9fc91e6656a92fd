import { useState } from 'react';
import { Alert, Badge, Box, Button, Card, Group, Skeleton, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { IconBrandSlack, IconTrash } from '@tabler/icons-react';
import { AddIntegrationBody, integrationMessages } from '@gantry/contracts';
import { isApiError } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { useProfile } from '../../../api/session';
import { toast } from '../../../api/toast';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { Permitted } from '../../../ui/Permitted';
import { UpgradePrompt, usePlanGate } from '../../../ui/UpgradePrompt';
import { useZodForm } from '../../../ui/use-zod-form';
import { useAddIntegration, useIntegrations, useRemoveIntegration } from '../api/integrations';
import { useNotificationSubscribers, useSetSubscribed } from '../api/subscriptions';

/** Settings → Notifications (spec §2.9): the Integrations card (Slack) and the Subscriptions card. */
export function NotificationsTab({ projectId }: { projectId: string }) {
  return (
    <Stack gap="lg" maw={760}>
      <IntegrationsCard projectId={projectId} />
      <SubscriptionsCard projectId={projectId} />
    </Stack>
  );
}

function IntegrationsCard({ projectId }: { projectId: string }) {
  const integrations = useIntegrations(projectId);
  const add = useAddIntegration(projectId);
  const remove = useRemoveIntegration(projectId);
  const [confirming, setConfirming] = useState(false);
  const form = useZodForm(AddIntegrationBody, { type: 'slack', webhookUrl: '' });
  const gate = usePlanGate(integrations.error);
  const slack = integrations.data?.find((i) => i.type === 'slack');
  // A member who may not add the integration is not asked to type its webhook either.
  const refused = !useProjectPermission().can('change');

  const submit = form.onSubmit((body) => {
    // spec §5: one Slack integration per project, said before asking the server
    if (slack) return toast.error(integrationMessages.onlyOne);
    add.mutate(body, {
      onSuccess: () => {
        toast.success(integrationMessages.added);
        form.reset({ type: 'slack', webhookUrl: '' });
      },
      onError: (e) => {
        if (isApiError(e) && e.status === 409) return toast.error(integrationMessages.onlyOne);
        if (isApiError(e) && e.status === 402) return toast.apiError(e);
        if (isApiError(e) && e.status === 403) return toast.apiError(e);
        toast.error(integrationMessages.badUrl);
      },
    });
  });

  return (
    <Card withBorder radius="md" padding="lg">
      <Group gap="xs" mb={4}>
        <IconBrandSlack size={20} />
        <Title order={4} fz="md">
          Integrations
        </Title>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Post this project&apos;s finished builds, deployments and service deploys to a Slack channel, with links back to Gantry.
      </Text>
      {gate.limited ? (
        <UpgradePrompt message={gate.message} compact />
      ) : integrations.isPending ? (
        <Skeleton h={36} radius="sm" />
      ) : integrations.isError ? (
        <Alert color="red" variant="light">
          {integrations.error.message}
        </Alert>
      ) : slack ? (
        <Group justify="space-between" wrap="nowrap" data-testid="slack-integration">
          <Group gap="sm" wrap="nowrap">
            <Badge color="teal" variant="light">
              Slack
            </Badge>
            <Text size="sm">
              Incoming webhook on <b>{slack.webhookHost}</b>
            </Text>
          </Group>
          <Permitted action="change">
            {(disabled) => (
              <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} disabled={disabled} onClick={() => setConfirming(true)}>
                Remove
              </Button>
            )}
          </Permitted>
        </Group>
      ) : (
        <form onSubmit={submit} noValidate>
          {/* The button stands beside the input itself, the description and any error under both. */}
          <TextInput
            label="Slack incoming webhook URL"
            placeholder="https://hooks.slack.com/services/…"
            description="In Slack: Apps → Incoming Webhooks → Add to Slack, pick the channel, copy the Webhook URL."
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            disabled={refused}
            inputContainer={(input) => (
              <Group align="flex-start" gap="sm" wrap="nowrap">
                <Box flex={1}>{input}</Box>
                <Permitted action="change">
                  {(disabled) => (
                    <Button type="submit" loading={add.isPending} disabled={disabled}>
                      Add integration
                    </Button>
                  )}
                </Permitted>
              </Group>
            )}
            {...form.field('webhookUrl')}
          />
        </form>
      )}
      <ConfirmModal
        opened={confirming}
        title="Remove Slack integration"
        message="Gantry stops posting this project's notifications to the channel. You can add a webhook again at any time."
        confirmLabel="Remove"
        danger
        loading={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate('slack', {
            onSuccess: () => {
              setConfirming(false);
              toast.success(integrationMessages.removed);
            },
            onError: (e) => toast.apiError(e),
          })
        }
      />
    </Card>
  );
}

function SubscriptionsCard({ projectId }: { projectId: string }) {
  const profile = useProfile();
  const subscribers = useNotificationSubscribers(projectId);
  const set = useSetSubscribed(projectId, profile?.id ?? '');
  const subscribed = !!profile && !!subscribers.data?.includes(profile.id);

  return (
    <Card withBorder radius="md" padding="lg">
      <Title order={4} fz="md" mb={4}>
        Subscriptions
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Subscribed members see the project&apos;s builds, deployments and service deploys in their notifications.
      </Text>
      {subscribers.isPending ? (
        <Skeleton h={24} w={320} radius="sm" />
      ) : subscribers.isError ? (
        <Alert color="red" variant="light">
          {subscribers.error.message}
        </Alert>
      ) : (
        <Group justify="space-between">
          <Switch
            label="Receive all notifications of this project"
            checked={subscribed}
            disabled={set.isPending || !profile}
            onChange={(e) =>
              set.mutate(e.currentTarget.checked, {
                onSuccess: (_d, on) => toast.success(on ? integrationMessages.subscribed : integrationMessages.unsubscribed),
                onError: (err) => toast.apiError(err),
              })
            }
          />
          <Text size="xs" c="dimmed">
            {subscribers.data.length} subscribed member{subscribers.data.length === 1 ? '' : 's'}
          </Text>
        </Group>
      )}
    </Card>
  );
}
