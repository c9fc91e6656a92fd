import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useProjectSocket } from '../../../api/socket';
import { pipelineKeys } from '../api/keys';

type BuildUpdate = { pipelineId: string; buildId: string; status: string };

/**
 * 'build:update' events of the project room refresh what a status change touches, on top of
 * the spec's polling (10 s list, 5 s build page): the list, metrics, minutes, builds, the build.
 */
export function useBuildUpdates(projectId: string | undefined) {
  const socket = useProjectSocket(projectId);
  const qc = useQueryClient();
  useEffect(() => {
    if (!socket || !projectId) return;
    const onUpdate = (u: BuildUpdate) => {
      if (!u?.pipelineId) return;
      void qc.invalidateQueries({ queryKey: pipelineKeys.list(projectId) });
      void qc.invalidateQueries({ queryKey: pipelineKeys.allMetrics(projectId) });
      void qc.invalidateQueries({ queryKey: pipelineKeys.limitations(projectId) });
      void qc.invalidateQueries({ queryKey: pipelineKeys.buildsOf(projectId, u.pipelineId) });
      void qc.invalidateQueries({ queryKey: pipelineKeys.buildsOfPipeline(projectId, u.pipelineId) });
      void qc.invalidateQueries({ queryKey: pipelineKeys.detail(projectId, u.pipelineId) });
    };
    socket.on('build:update', onUpdate);
    return () => {
      socket.off('build:update', onUpdate);
    };
  }, [socket, projectId, qc]);
}
