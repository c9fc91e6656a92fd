import { Button, Text } from '@mantine/core';
import { IconPlugConnected, IconSteeringWheel } from '@tabler/icons-react';
import { Permitted } from '../../../ui/Permitted';
import { ClusterNotice } from './ClusterNotice';

/**
 * A cluster page whose cluster Gantry does not know: an environment's Kubernetes resource links to
 * /kubernetes/clusters/{stageId}-{resourceName} (infrastructure-builder), which shows its dashboard once the
 * cluster is connected under that name.
 */
export function NotConnected({ clusterId, onConnect }: { clusterId: string; onConnect: () => void }) {
  return (
    <ClusterNotice testId="cluster-not-connected" color="gray" icon={<IconSteeringWheel size={32} stroke={1.5} />} title="This cluster is not connected">
      <Text c="dimmed" size="sm" maw={560}>
        Gantry has no cluster named <b>{clusterId}</b> in this project. Connect its API server under this name to see its nodes, pods and services here — an
        environment&apos;s Kubernetes resource links to this page.
      </Text>
      <Permitted action="change">
        {(disabled) => (
          <Button leftSection={<IconPlugConnected size={16} />} mt="sm" disabled={disabled} onClick={onConnect}>
            Connect Kubernetes
          </Button>
        )}
      </Permitted>
    </ClusterNotice>
  );
}
