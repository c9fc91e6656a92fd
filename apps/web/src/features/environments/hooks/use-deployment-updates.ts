import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onRealtime } from '../../../api/realtime';
import { applyDeploymentStreaming, applyDeploymentUpdate, applyPlanUpdate, applyStageUpdate } from '../api/apply-deployment-update';

/**
 * The project room's `deployment:update`, `stage:update` and `plan:update` events written into the
 * environments' cache, on top of the spec's polls; a streaming deployment log shows its deployment running.
 */
export function useDeploymentUpdates(projectId: string | undefined) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!projectId) return;
    const stops = [
      onRealtime('deployment:update', (event) => applyDeploymentUpdate(qc, projectId, event)),
      onRealtime('stage:update', (event) => applyStageUpdate(qc, projectId, event)),
      onRealtime('plan:update', (event) => applyPlanUpdate(qc, projectId, event)),
      onRealtime('logs', (chunk) => !('step' in chunk) && applyDeploymentStreaming(qc, projectId, chunk)),
    ];
    return () => stops.forEach((stop) => stop());
  }, [qc, projectId]);
}
