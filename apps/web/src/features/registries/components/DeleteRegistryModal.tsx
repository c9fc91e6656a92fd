import type { DockerRegistry } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { useDeleteDockerRegistry } from '../api/delete-registry';

/** Delete asks for confirmation saying the action cannot be undone (spec §8). */
export function DeleteRegistryModal({ projectId, registry, onClose }: { projectId: string; registry: DockerRegistry | null; onClose: () => void }) {
  const remove = useDeleteDockerRegistry(projectId);
  return (
    <ConfirmModal
      opened={Boolean(registry)}
      title="Delete Docker registry"
      message={
        registry
          ? `Are you sure you want to delete the registry ${registry.registryName}? Its stored credentials are deleted and services can no longer pull from it. This action cannot be undone.`
          : ''
      }
      confirmLabel="Delete"
      danger
      loading={remove.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (!registry) return;
        remove.mutate(registry.registryName, {
          onSuccess: () => {
            toast.success(`Registry ${registry.registryName} has been deleted`);
            onClose();
          },
          onError: (e) => {
            toast.apiError(e);
            onClose();
          },
        });
      }}
    />
  );
}
