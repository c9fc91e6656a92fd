import { useProjectEvents, type ProjectEventHandlers } from '../../../api/use-project-events';
import { applyBuildUpdate } from '../api/apply-build-update';
import { applyStepStreaming, applyStepUpdate } from '../api/apply-step-update';

const buildEvents: ProjectEventHandlers = {
  'build:update': applyBuildUpdate,
  'step:update': applyStepUpdate,
  logs: (qc, projectId, chunk) => 'step' in chunk && applyStepStreaming(qc, projectId, chunk),
};

/**
 * The project room's `build:update` and `step:update` events written into the pipelines' cache, on
 * top of the spec's polling (10 s list, 5 s build page); a streaming step log shows its step running.
 */
export function useBuildUpdates(projectId: string | undefined) {
  useProjectEvents(projectId, buildEvents);
}
