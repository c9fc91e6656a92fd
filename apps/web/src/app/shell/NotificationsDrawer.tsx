import { Badge, Button, Card, Drawer, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconBellOff, IconChecks } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { notificationPath } from '@gantry/contracts';
import { session } from '../../api/session';
import { EmptyState } from '../../ui/EmptyState';
import { RelativeTime } from '../../ui/RelativeTime';
import { useMarkAllNotificationsRead, useMarkNotificationRead, useNotifications, type NotificationItem } from './notifications';

export const NO_UNREAD = 'No unread notifications';

function NotificationCard({ n, onOpen }: { n: NotificationItem; onOpen: (n: NotificationItem) => void }) {
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      bg={n.isRead ? undefined : 'indigo.0'}
      component="button"
      type="button"
      aria-label={`Notification ${n.message}`}
      onClick={() => onOpen(n)}
      style={{ textAlign: 'left', cursor: 'pointer', width: '100%' }}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm" fw={600}>
          {n.author}
        </Text>
        <RelativeTime date={n.timestamp} size="xs" />
      </Group>
      <Text size="sm">{n.message}</Text>
      {n.projectName && (
        <Text size="xs" c="dimmed" mt={4}>
          {n.projectName}
        </Text>
      )}
    </Card>
  );
}

/** The notifications drawer (spec §2.7): tabs All and Unread, Mark all as read. */
export function NotificationsDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { items, refetch } = useNotifications();
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const navigate = useNavigate();
  const [tab, setTab] = useState<string | null>('all');
  useEffect(() => {
    if (opened) refetch();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  // Clicking a card selects its project, marks it read and opens the build or environment (spec §2.7).
  const open = (n: NotificationItem) => {
    session.setProject({ id: n.projectId, name: n.projectName });
    if (!n.isRead) markRead.mutate(n);
    onClose();
    navigate(notificationPath(n));
  };
  const unread = items.filter((n) => !n.isRead);
  const shown = tab === 'unread' ? unread : items;

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="left"
      size={400}
      offset={8}
      radius="md"
      title={
        <Group gap="xs">
          <Title order={4}>Notifications</Title>
          <Badge variant="light" color={unread.length ? 'red' : 'gray'}>
            {unread.length}
          </Badge>
        </Group>
      }
    >
      <Stack gap="md">
        <Group justify="space-between">
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="all">All</Tabs.Tab>
              <Tabs.Tab value="unread">Unread</Tabs.Tab>
            </Tabs.List>
          </Tabs>
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconChecks size={14} />}
            disabled={unread.length === 0}
            loading={markAll.isPending}
            onClick={() => markAll.mutate([...new Set(unread.map((n) => n.projectId))])}
          >
            Mark all as read
          </Button>
        </Group>
        {shown.length === 0 ? (
          <EmptyState compact title={NO_UNREAD} icon={<IconBellOff size={20} />} />
        ) : (
          shown.map((n) => <NotificationCard key={n.id} n={n} onOpen={open} />)
        )}
      </Stack>
    </Drawer>
  );
}
