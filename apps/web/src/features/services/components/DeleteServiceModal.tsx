import { serviceMessages, type Microservice } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { useDeleteMicroservice } from '../api/save-microservice';

/** Remove asks for confirmation saying the action cannot be undone (spec §8); private services only. */
export function DeleteServiceModal({
  projectId,
  service,
  onClose,
  onDeleted,
}: {
  projectId: string;
  service: Pick<Microservice, 'name'> | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const remove = useDeleteMicroservice(projectId);
  return (
    <ConfirmModal
      opened={Boolean(service)}
      title="Remove service"
      message={
        service
          ? `Are you sure you want to remove the service ${service.name}? Where it is deployed it keeps running until you undeploy it. This action cannot be undone.`
          : ''
      }
      confirmLabel="Remove"
      danger
      loading={remove.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (!service) return;
        remove.mutate(service.name, {
          onSuccess: () => {
            toast.success(serviceMessages.deleted(service.name));
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
