import { queryOptions, replaceEqualDeep, useQuery } from '@tanstack/react-query';
import { BUILD_POLL_MS, isBuildActive, type Build } from '@gantry/contracts';
import { http } from '../../../api/http';
import { pollMs } from '../../../api/poll';
import { keepFurther } from './apply-step-update';
import { buildPath, pipelineKeys } from './keys';

/** getPipelineBuild: the build id, or its number. */
export const getPipelineBuild = (projectId: string, pipelineId: string, buildId: string) => http.get<Build>(buildPath(projectId, pipelineId, buildId));

/** Polled every 5 s while RUNNING, SCHEDULING or QUEUED; stops once it leaves them (spec §4). The socket's events come first; a poll never takes a status back. */
export const pipelineBuildQuery = (projectId: string, pipelineId: string, buildId: string) =>
  queryOptions({
    queryKey: pipelineKeys.build(projectId, pipelineId, buildId),
    queryFn: () => getPipelineBuild(projectId, pipelineId, buildId),
    refetchInterval: (q) => (isBuildActive(q.state.data?.status) ? pollMs(BUILD_POLL_MS) : false),
    structuralSharing: (cached, fetched) => replaceEqualDeep(cached, keepFurther(cached, fetched)),
    staleTime: 0,
  });

export const usePipelineBuild = (projectId: string, pipelineId: string, buildId: string) =>
  useQuery({ ...pipelineBuildQuery(projectId, pipelineId, buildId), enabled: Boolean(projectId && pipelineId && buildId) });
