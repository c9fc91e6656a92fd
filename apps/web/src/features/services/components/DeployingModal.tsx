import { Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { serviceMessages } from '@gantry/contracts';
import { useCurrentProject } from '../../../api/session';
import { useDeploymentStatus, type ServiceInCluster } from '../api/deployments';
import { rolloutProgress } from '../lib/rollout';

/** What a page navigating to the cluster dashboard after a deploy hands over (router state): the rollout to follow. */
export type RolloutState = { rollout: ServiceInCluster };

/**
 * The deploying modal (spec §2 dashboard): after the deploy is applied, the rollout's progress — ready pods of the
 * desired ones, read every 2 seconds — until every pod is ready; 'No deployment information available' while the
 * cluster has none.
 */
export function DeployingModal({ target, onClose }: { target: ServiceInCluster | null; onClose: () => void }) {
  const projectId = useCurrentProject()?.id ?? '';
  const status = useDeploymentStatus(projectId, target ?? {}, { enabled: Boolean(target), poll: 2000 });
  const progress = rolloutProgress(status.data?.replicas);
  const done = progress === 100;
  return (
    <Modal opened={Boolean(target)} onClose={onClose} centered radius="md" title={<Text fw={650}>Deploying {target?.name}</Text>}>
      <Stack gap="sm" data-testid="deploying-modal">
        <Progress value={progress ?? 100} animated={!done} striped={!done} color={done ? 'teal' : 'indigo'} size="lg" radius="sm" />
        {progress === null ? (
          <Text size="sm" c="dimmed">
            {status.isPending ? 'Applying to the cluster…' : serviceMessages.noDeploymentInfo}
          </Text>
        ) : (
          // the check stays beside the text's first line when the text wraps (at 390 px it stood alone above it)
          <Group gap={6} wrap="nowrap" align="flex-start">
            {done && (
              <span data-testid="deploying-done" style={{ flexShrink: 0, display: 'flex', marginTop: 2 }}>
                <IconCircleCheck size={16} color="var(--mantine-color-teal-6)" />
              </span>
            )}
            <Text size="sm" data-testid="deploying-progress">
              {status.data?.replicas?.ready ?? 0} of {status.data?.replicas?.desired ?? 0} pods ready in {target?.namespace}
              {status.data?.version ? ` · version ${status.data.version}` : ''}
            </Text>
          </Group>
        )}
        <Group justify="flex-end">
          <Button variant={done ? 'filled' : 'default'} onClick={onClose}>
            {done ? 'Done' : 'Close'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
