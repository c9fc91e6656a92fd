import { useMemo } from 'react';
import { useLogStream, type LogStream, type LogStreamState } from '../../../api/use-log-stream';
import { getStepLogs } from '../api/get-step-logs';

/** The live log of one build step (spec §2 Build execution page, §7); `buildId` is the build's id. */
export function useStepLogs({
  projectId,
  pipelineId,
  buildId,
  step,
}: {
  projectId: string;
  pipelineId: string;
  buildId: string;
  step: string;
}): LogStreamState {
  const stream = useMemo<LogStream>(
    () => ({
      source: { kind: 'build-step', projectId, pipelineId, buildId, step },
      readStored: () => getStepLogs(projectId, pipelineId, buildId, step),
      unreadableMessage: 'Could not load the logs of this step',
    }),
    [projectId, pipelineId, buildId, step],
  );
  return useLogStream(stream);
}
