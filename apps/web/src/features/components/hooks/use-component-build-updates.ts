import { isBuildActive, type ComponentDetails } from '@gantry/contracts';
import { useProjectEvents, type ProjectEventHandlers } from '../../../api/use-project-events';
import { componentKeys } from '../api/keys';

/**
 * A build of an open component's pipeline changed status (the project room's `build:update`): its running build is read
 * again, and once the build ends its details and versions. The 5 s poll of the running build alone missed a build
 * quicker than it, whose new version then stayed out of the page until a reload.
 */
export const componentBuildEvents: ProjectEventHandlers = {
  'build:update': (qc, projectId, event) => {
    for (const [key, details] of qc.getQueriesData<ComponentDetails>({ queryKey: [...componentKeys.all(projectId), 'detail'] })) {
      if (!details || details.pipelineId !== event.pipelineId) continue;
      const componentId = String(key[3]);
      void qc.invalidateQueries({ queryKey: componentKeys.building(projectId, componentId) });
      if (isBuildActive(event.status)) continue;
      void qc.invalidateQueries({ queryKey: componentKeys.detailsOf(projectId, componentId) });
      void qc.invalidateQueries({ queryKey: componentKeys.versions(projectId, componentId) });
    }
  },
};

export function useComponentBuildUpdates(projectId: string | undefined) {
  useProjectEvents(projectId, componentBuildEvents);
}
