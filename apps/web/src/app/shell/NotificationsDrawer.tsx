import { Badge, Button, Card, Drawer, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconBellOff, IconChecks } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyState } from '../../ui/EmptyState';
import { RelativeTime } from '../../ui/RelativeTime';
import { useNotifications, type NotificationItem } from './notifications';

export const NO_UNREAD = 'No unread notifications';

function NotificationCard({ n }: { n: NotificationItem }) {
  return (
    <Card withBorder radius="md" padding="sm" bg={n.isRead ? undefined : 'indigo.0'}>
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
  const { items } = useNotifications();
  const [tab, setTab] = useState<string | null>('all');
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
          <Button variant="subtle" size="xs" leftSection={<IconChecks size={14} />} disabled={unread.length === 0}>
            Mark all as read
          </Button>
        </Group>
        {shown.length === 0 ? (
          <EmptyState compact title={NO_UNREAD} icon={<IconBellOff size={20} />} />
        ) : (
          shown.map((n) => <NotificationCard key={n.id} n={n} />)
        )}
      </Stack>
    </Drawer>
  );
}
