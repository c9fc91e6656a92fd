import { Badge, Group, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { Report } from '@gantry/contracts';
import { RelativeTime } from '../../../ui/RelativeTime';
import { dayjs } from '../../../ui/dayjs';

/** The "Last sent" cell: when the report last reached its recipients, or that its newest send is under way or failed. */
export function LastSendCell({ report: r }: { report: Report }) {
  const s = r.lastSend;
  if (s?.status === 'SENDING')
    return (
      <Group gap={6} wrap="nowrap" data-testid="report-send-status">
        <Loader size={12} />
        <Text size="xs">Sending…</Text>
      </Group>
    );
  if (s?.status === 'FAILED')
    return (
      <Stack gap={2} align="flex-start" data-testid="report-send-status">
        <Badge color="red" variant="light" radius="sm" size="sm">
          Send failed
        </Badge>
        <RelativeTime date={s.at} size="xs" />
      </Stack>
    );
  return r.lastSentAt ? (
    <RelativeTime date={r.lastSentAt} size="xs" data-testid="report-send-status" />
  ) : (
    <Text size="xs" c="dimmed" data-testid="report-send-status">
      Never sent
    </Text>
  );
}

/** Under a report whose newest send failed: what went wrong, and whether Gantry tries again by itself. */
export function LastSendError({ report: r }: { report: Report }) {
  const s = r.lastSend;
  if (s?.status !== 'FAILED') return null;
  const what = s.trigger === 'MANUAL' ? 'Send now' : 'The scheduled send';
  const next = s.retryAt
    ? `Gantry tries again at ${dayjs(s.retryAt).format('HH:mm')}, or use Send now.`
    : 'It is not retried: fix the cause, then use Send now.';
  return (
    <Stack gap={2} mt={6} maw={520} data-testid="report-send-error">
      <Group gap={6} wrap="nowrap" align="flex-start">
        <IconAlertTriangle size={14} color="var(--mantine-color-red-7)" style={{ flexShrink: 0, marginTop: 1 }} />
        <Text size="xs" c="red.8" style={{ wordBreak: 'break-word' }}>
          {what} failed: {(s.error ?? 'unknown error').replace(/\.$/, '')}.
        </Text>
      </Group>
      <Text size="xs" c="dimmed" pl={20}>
        {next}
      </Text>
    </Stack>
  );
}
