import { clusterMessages, type Cluster } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { useDeleteCluster } from '../api/delete-cluster';

/** Remove asks for confirmation saying the action cannot be undone (spec §8). */
export function DeleteClusterModal({ projectId, cluster, onClose }: { projectId: string; cluster: Cluster | null; onClose: () => void }) {
  const remove = useDeleteCluster(projectId);
  return (
    <ConfirmModal
      opened={Boolean(cluster)}
      title="Remove Kubernetes cluster"
      message={
        cluster
          ? `Are you sure you want to remove the cluster ${cluster.name}? Gantry forgets its endpoint and token; the cluster itself and what runs in it are left as they are. This action cannot be undone.`
          : ''
      }
      confirmLabel="Remove"
      danger
      loading={remove.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (!cluster) return;
        remove.mutate(cluster.id, {
          onSuccess: () => {
            toast.success(clusterMessages.deleted(cluster.name));
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
