import { serviceMessages } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { useUndeployMicroservice, type ServiceInCluster } from '../api/deployments';

/** Undeploy (spec §4): confirmation, then the call; done → 'Successfully undeployed {name} service'; the status is refreshed either way. */
export function UndeployModal({
  projectId,
  target,
  onClose,
  onDone,
}: {
  projectId: string;
  target: ServiceInCluster | null;
  onClose: () => void;
  onDone?: () => void;
}) {
  const undeploy = useUndeployMicroservice(projectId);
  return (
    <ConfirmModal
      opened={Boolean(target)}
      title="Undeploy service"
      message={
        target
          ? `Are you sure you want to undeploy ${target.name} from namespace ${target.namespace}? Its deployment, service, autoscaler and pull secret are removed from the cluster. This action cannot be undone.`
          : ''
      }
      confirmLabel="Undeploy"
      danger
      loading={undeploy.isPending}
      onCancel={onClose}
      onConfirm={() => {
        if (!target) return;
        undeploy.mutate(target, {
          onSuccess: (r) => {
            if (r.done) toast.success(serviceMessages.undeployed(target.name));
            onClose();
            onDone?.();
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
