import { Button, List, Text } from '@mantine/core';
import { IconHourglassEmpty } from '@tabler/icons-react';
import { Link } from 'react-router';
import { UPGRADE_PATH } from '../../../api/toast';
import { ClusterNotice } from './ClusterNotice';

/** Spec §2 Clusters: a 402 from the status call replaces the dashboard with this page. */
export function TrialExpired() {
  return (
    <ClusterNotice
      testId="cluster-trial-expired"
      color="violet"
      icon={<IconHourglassEmpty size={32} stroke={1.5} />}
      title="Your Kubernetes dashboard trial has expired"
    >
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
    </ClusterNotice>
  );
}
