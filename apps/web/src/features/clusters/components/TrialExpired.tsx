import { Button, Card, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHourglassEmpty } from '@tabler/icons-react';
import { Link } from 'react-router';
import { UPGRADE_PATH } from '../../../api/toast';

/** Spec §2 Clusters: a 402 from the status call replaces the dashboard with this page. */
export function TrialExpired() {
  return (
    <Card withBorder radius="md" padding="xl" data-testid="cluster-trial-expired">
      <Stack align="center" gap="sm" py="lg" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color="violet">
          <IconHourglassEmpty size={32} stroke={1.5} />
        </ThemeIcon>
        <Title order={3} fw={650}>
          Your Kubernetes dashboard trial has expired
        </Title>
        <Text c="dimmed" size="sm" maw={520}>
          The 30-day trial of the Kubernetes dashboard is over. Your cluster keeps running as it is and nothing in it was changed.
        </Text>
        <List size="sm" c="dimmed" maw={520} ta="left" spacing={4}>
          <List.Item>You can still deploy services to it from Service details → Add to Cluster.</List.Item>
          <List.Item>Upgrade your plan to see nodes, pods, utilization and services here again.</List.Item>
        </List>
        <Button component={Link} to={UPGRADE_PATH} color="violet" mt="sm">
          Upgrade Now!
        </Button>
      </Stack>
    </Card>
  );
}
