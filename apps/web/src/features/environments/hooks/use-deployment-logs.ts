import { useMemo } from 'react';
import { useLogStream, type LogStream } from '../../../api/use-log-stream';
import { getDeploymentLogs } from '../api/deployments';

/** The live terraform log of a deployment (spec §7: projectId, stageId, deploymentId, typeOfLogs=terraform). */
export function useDeploymentLogs({ projectId, stageId, deploymentId }: { projectId: string; stageId: string; deploymentId: string }) {
  const stream = useMemo<LogStream>(
    () => ({
      source: { kind: 'deployment', projectId, stageId, deploymentId },
      readStored: () => getDeploymentLogs(projectId, stageId, deploymentId),
      unreadableMessage: 'Could not load the logs of this deployment',
    }),
    [projectId, stageId, deploymentId],
  );
  return useLogStream(stream);
}
