import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import { isBuildActive, type Build, type BuildUpdateEvent, type Pipeline } from '@gantry/contracts';
import type { listPipelineBuilds } from './list-pipeline-builds';
import type { listPipelines } from './list-pipelines';
import { pipelineKeys } from './keys';

type BuildPages = InfiniteData<Awaited<ReturnType<typeof listPipelineBuilds>>>;
type PipelineList = Awaited<ReturnType<typeof listPipelines>>;

const withStatus = <B extends { id: string; status: string }>(b: B, e: BuildUpdateEvent): B => (b.id === e.buildId ? { ...b, status: e.status } : b);
const holdsBuild = (p: Pipeline, e: BuildUpdateEvent) => p.id === e.pipelineId && p.latestBuild?.id === e.buildId;

/**
 * A `build:update` (builds.service publishStatus: { pipelineId, buildId, status }) written into the
 * cache: the status goes into the cached build, the build list pages and the pipelines' latest build.
 * What the status alone cannot tell is refetched: metrics and minutes always; a build the cache does
 * not hold yet (a new one); and at a final status the build, its list and the pipelines, for the stop
 * time and the steps. The spec's polls stay the fallback.
 */
export function applyBuildUpdate(qc: QueryClient, projectId: string, e: BuildUpdateEvent) {
  const final = !isBuildActive(e.status);
  const refetch = (queryKey: QueryKey) => void qc.invalidateQueries({ queryKey, exact: true });

  // The build page's key holds the id or the number from the URL: found by the id in its data.
  for (const [key, build] of qc.getQueriesData<Build>({ queryKey: pipelineKeys.buildsOfPipeline(projectId, e.pipelineId) })) {
    if (build?.id !== e.buildId) continue;
    qc.setQueryData<Build>(key, withStatus(build, e));
    if (final) refetch(key);
  }

  for (const [key, pages] of qc.getQueriesData<BuildPages>({ queryKey: pipelineKeys.buildsOf(projectId, e.pipelineId) })) {
    if (!pages) continue;
    const listed = pages.pages.some((page) => page.builds.some((b) => b.id === e.buildId));
    if (listed)
      qc.setQueryData<BuildPages>(key, { ...pages, pages: pages.pages.map((page) => ({ ...page, builds: page.builds.map((b) => withStatus(b, e)) })) });
    if (!listed || final) refetch(key);
  }

  const listKey = pipelineKeys.list(projectId);
  const list = qc.getQueryData<PipelineList>(listKey);
  if (list) {
    const held = list.pipelines.some((p) => holdsBuild(p, e));
    if (held)
      qc.setQueryData<PipelineList>(listKey, {
        ...list,
        pipelines: list.pipelines.map((p) => (holdsBuild(p, e) ? { ...p, latestBuild: withStatus(p.latestBuild!, e) } : p)),
      });
    if (!held || final) refetch(listKey);
  }

  const detailKey = pipelineKeys.detail(projectId, e.pipelineId);
  const pipeline = qc.getQueryData<Pipeline>(detailKey);
  if (pipeline) {
    const held = holdsBuild(pipeline, e);
    if (held) qc.setQueryData<Pipeline>(detailKey, { ...pipeline, latestBuild: withStatus(pipeline.latestBuild!, e) });
    if (!held || final) refetch(detailKey);
  }

  void qc.invalidateQueries({ queryKey: pipelineKeys.allMetrics(projectId) });
  void qc.invalidateQueries({ queryKey: pipelineKeys.limitations(projectId) });
}
