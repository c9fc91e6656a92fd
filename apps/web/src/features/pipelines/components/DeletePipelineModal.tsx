import { toast } from '../../../api/toast';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { useDeletePipeline } from '../api/delete-pipeline';

/** Delete asks for confirmation saying the action cannot be undone (spec §2). */
export function DeletePipelineModal({
  projectId,
  pipeline,
  onClose,
  onDeleted,
}: {
  projectId: string;
  pipeline: { id: string; name: string } | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const remove = useDeletePipeline(projectId);
  return (
    <ConfirmModal
      opened={Boolean(pipeline)}
      title="Delete pipeline"
      message={
        pipeline
          ? `Are you sure you want to delete the pipeline ${pipeline.name}? Its builds, logs and artifacts are deleted with it. This action cannot be undone.`
          : ''
      }
      confirmLabel="Delete"
      danger
      loading={remove.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (!pipeline) return;
        remove.mutate(pipeline.id, {
          onSuccess: () => {
            toast.success(`Pipeline ${pipeline.name} has been deleted`);
            onClose();
            onDeleted?.();
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
