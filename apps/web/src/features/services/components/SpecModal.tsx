import { Code, Modal, ScrollArea, Skeleton, Text } from '@mantine/core';
import { errorMessage } from '../../../api/errors';
import { useKubernetesSpec } from '../api/in-cluster';
import { toYamlDocuments } from '../lib/spec-yaml';
import type { ServiceInCluster } from '../api/deployments';

/** The Kubernetes Spec modal (spec §2): the objects deploy applied, as the cluster has them now, in YAML. */
export function SpecModal({ projectId, target, opened, onClose }: { projectId: string; target: ServiceInCluster; opened: boolean; onClose: () => void }) {
  const spec = useKubernetesSpec(projectId, target, opened);
  return (
    <Modal opened={opened} onClose={onClose} size="xl" radius="md" title={<Text fw={650}>Kubernetes Spec · {target.name}</Text>}>
      {spec.isPending ? (
        <Skeleton height={300} />
      ) : spec.isError ? (
        <Text c="red" size="sm">
          {errorMessage(spec.error)}
        </Text>
      ) : (
        <ScrollArea h={520} type="auto">
          <Code block fz="xs" data-testid="kubernetes-spec">
            {toYamlDocuments(spec.data.objects)}
          </Code>
        </ScrollArea>
      )}
    </Modal>
  );
}
