import { Anchor, Button, Card, Group, Select, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconRocket, IconSteeringWheel } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Microservice } from '@gantry/contracts';
import { useClusters } from '../../clusters';
import { Permitted } from '../../../ui/Permitted';
import { useErrorToast } from '../../../ui/use-error-toast';
import { DeployDialog } from './DeployDialog';
import type { RolloutState } from './DeployingModal';

/**
 * Add to Cluster (spec §2 service details): a cluster picker — with none, a link to /kubernetes/clusters —, the
 * button disabled until one is chosen, then the deploy dialog; after a deploy, the cluster's dashboard, which shows
 * the rollout in its deploying modal.
 */
export function AddToCluster({ projectId, service, canDeploy }: { projectId: string; service: Microservice; canDeploy: boolean }) {
  const clusters = useClusters(projectId);
  const navigate = useNavigate();
  const [clusterId, setClusterId] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  useErrorToast(clusters.error);
  const cluster = clusters.data?.find((c) => c.id === clusterId);

  return (
    <Card withBorder radius="md" padding="lg" data-testid="add-to-cluster">
      <Group gap="xs" mb="sm">
        <ThemeIcon size={26} radius="md" variant="light" color="indigo">
          <IconSteeringWheel size={16} />
        </ThemeIcon>
        <Text fw={600}>Add to Cluster</Text>
      </Group>
      {clusters.isSuccess && clusters.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No clusters connected yet.{' '}
          <Anchor component={Link} to="/kubernetes/clusters">
            Connect a Kubernetes cluster
          </Anchor>{' '}
          to deploy this service.
        </Text>
      ) : (
        <Stack gap="sm">
          <Select
            aria-label="Cluster"
            placeholder={clusters.isPending ? 'Loading clusters…' : 'Select a cluster'}
            data={(clusters.data ?? []).map((c) => ({ value: c.id, label: c.associatedNamespace ? `${c.name} (${c.associatedNamespace})` : c.name }))}
            value={clusterId}
            onChange={setClusterId}
            disabled={!canDeploy}
          />
          <Permitted action="change">
            {(refused) => (
              <Button leftSection={<IconRocket size={16} />} disabled={!cluster || refused} onClick={() => setOpen(true)}>
                Add to Cluster
              </Button>
            )}
          </Permitted>
        </Stack>
      )}
      {cluster && (
        <DeployDialog
          projectId={projectId}
          service={open ? service : null}
          clusterId={cluster.id}
          clusterName={cluster.name}
          namespace={cluster.associatedNamespace}
          onClose={() => setOpen(false)}
          onDeployed={(target) => navigate(`/kubernetes/clusters/${encodeURIComponent(cluster.id)}`, { state: { rollout: target } satisfies RolloutState })}
        />
      )}
    </Card>
  );
}
