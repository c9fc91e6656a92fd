import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onRealtime } from '../../../api/realtime';
import { applyBuildUpdate } from '../api/apply-build-update';
import { applyStepStreaming, applyStepUpdate } from '../api/apply-step-update';

/**
 * The project room's `build:update` and `step:update` events written into the pipelines' cache, on
 * top of the spec's polling (10 s list, 5 s build page); a streaming step log shows its step running.
 */
export function useBuildUpdates(projectId: string | undefined) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!projectId) return;
    const stops = [
      onRealtime('build:update', (event) => applyBuildUpdate(qc, projectId, event)),
      onRealtime('step:update', (event) => applyStepUpdate(qc, projectId, event)),
      onRealtime('logs', (chunk) => 'step' in chunk && applyStepStreaming(qc, projectId, chunk)),
    ];
    return () => stops.forEach((stop) => stop());
  }, [qc, projectId]);
}
