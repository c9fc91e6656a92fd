import { useProjectEvents, type ProjectEventHandlers } from '../../../api/use-project-events';
import { applyDeploymentStreaming, applyDeploymentUpdate, applyPlanUpdate, applyStageUpdate } from '../api/apply-deployment-update';

const deploymentEvents: ProjectEventHandlers = {
  'deployment:update': applyDeploymentUpdate,
  'stage:update': applyStageUpdate,
  'plan:update': applyPlanUpdate,
  logs: (qc, projectId, chunk) => !('step' in chunk) && applyDeploymentStreaming(qc, projectId, chunk),
};

/**
 * The project room's `deployment:update`, `stage:update` and `plan:update` events written into the
 * environments' cache, on top of the spec's polls; a streaming deployment log shows its deployment running.
 */
export function useDeploymentUpdates(projectId: string | undefined) {
  useProjectEvents(projectId, deploymentEvents);
}
