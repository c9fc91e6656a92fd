import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { Stage } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { stageKeys } from '../api/keys';
import { ConfirmModal } from '../../../ui/ConfirmModal';
import { deleteStage } from '../api/stages';
import { undeployStage } from '../api/deployments';

type Pending = { kind: 'undeploy' | 'delete'; stage: Stage } | null;

/**
 * Undeploy and Delete of an environment with their confirmations (spec §5): undeploy removes the
 * cloud resources (the new status is applied, then the user follows the deployment), delete
 * removes the environment itself (back to /environments).
 */
export function useEnvironmentActions(projectId: string) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [pending, setPending] = useState<Pending>(null);
  const [busy, setBusy] = useState(false);
  // Environments deleted here: their queries go once this page is gone. Removed while the environment's own page still
  // showed them, its next render asked for the deleted environment and its resources again (two 404s in the console).
  const deleted = useRef<string[]>([]);
  useEffect(() => {
    const ids = deleted.current;
    return () => {
      for (const id of ids.splice(0)) qc.removeQueries({ queryKey: stageKeys.detail(projectId, id) });
    };
  }, [qc, projectId]);

  const run = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      if (pending.kind === 'undeploy') {
        const started = await undeployStage(projectId, pending.stage.id);
        qc.setQueryData<Stage>(stageKeys.detail(projectId, pending.stage.id), (s) => (s ? { ...s, status: started.status } : s));
        void qc.invalidateQueries({ queryKey: stageKeys.all });
        navigate(`/environments/${pending.stage.id}/deployment-insights`);
      } else {
        await deleteStage(projectId, pending.stage.id);
        deleted.current.push(pending.stage.id);
        void qc.cancelQueries({ queryKey: stageKeys.detail(projectId, pending.stage.id) });
        void qc.invalidateQueries({ queryKey: stageKeys.list(projectId) });
        toast.success(`Deleted environment ${pending.stage.name}.`);
        navigate('/environments');
      }
      setPending(null);
    } catch (e) {
      toast.apiError(e);
    } finally {
      setBusy(false);
    }
  };

  const modal = (
    <ConfirmModal
      opened={Boolean(pending)}
      danger
      loading={busy}
      title={pending?.kind === 'undeploy' ? 'Undeploy environment' : 'Delete environment'}
      confirmLabel={pending?.kind === 'undeploy' ? 'Undeploy' : 'Delete'}
      message={
        pending?.kind === 'undeploy'
          ? `Do you really want to undeploy ${pending.stage.name}? This deletes all cloud resources in the environment, but not the environment itself. This action cannot be undone.`
          : `Do you really want to delete the environment ${pending?.stage.name ?? ''}? This action cannot be undone.`
      }
      onConfirm={() => void run()}
      onCancel={() => setPending(null)}
    />
  );
  return { askUndeploy: (stage: Stage) => setPending({ kind: 'undeploy', stage }), askDelete: (stage: Stage) => setPending({ kind: 'delete', stage }), modal };
}
