import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { onRealtime } from '../../../api/realtime';
import { applyBuildUpdate } from '../api/apply-build-update';

/** The project room's `build:update` events written into the pipelines' cache, on top of the spec's polling (10 s list, 5 s build page). */
export function useBuildUpdates(projectId: string | undefined) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!projectId) return;
    return onRealtime('build:update', (event) => applyBuildUpdate(qc, projectId, event));
  }, [qc, projectId]);
}
