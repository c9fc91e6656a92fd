import { componentMessages } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { useDeleteComponent } from '../api/delete-component';

/** Delete confirmation (spec §5): the action cannot be undone; a refusal (409) toasts the server message. */
export function DeleteComponentModal({
  projectId,
  component,
  onClose,
  onDeleted,
}: {
  projectId: string;
  component: { id: string; name: string } | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteComponent(projectId);
  return (
    <ConfirmModal
      opened={Boolean(component)}
      title="Delete component"
      message={componentMessages.deleteConfirm}
      confirmLabel="Delete"
      danger
      loading={remove.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (!component) return;
        remove.mutate(component.id, {
          onSuccess: () => {
            toast.success(`Component ${component.name} has been deleted`);
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
