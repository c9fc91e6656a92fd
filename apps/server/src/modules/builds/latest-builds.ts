import type { Pipeline } from '@gantry/contracts';
import type { ArtifactStore } from '../../platform/artifacts.js';
import type { BuildsStore } from './builds.store.js';
import { toBuild } from './builds.service.js';
import { removePipelineCache } from './build-cache.js';

/** What pipelines need of their builds: the latest one of each (with its steps and artifacts, for the list's Reports), and their artifacts and step caches gone with the pipeline. */
export function createLatestBuilds(deps: { store: BuildsStore; artifacts: ArtifactStore; cacheRoot: string }) {
  return {
    async latestFor(pipelineIds: string[]): Promise<Map<string, Pipeline['latestBuild']>> {
      const rows = await deps.store.latestFor(pipelineIds);
      const ids = rows.map((r) => r.id);
      const [steps, artifacts] = await Promise.all([deps.store.stepsFor(ids), deps.store.artifacts(ids)]);
      return new Map(
        rows.map((r) => {
          const of = <T extends { buildId: string }>(all: T[]) => all.filter((x) => x.buildId === r.id);
          const { stages: _st, ...rest } = toBuild(r, '', of(steps), of(artifacts));
          return [r.pipelineId, rest];
        }),
      );
    },
    async removeArtifactsOf(pipelineId: string) {
      await deps.artifacts.removePrefix(`pipelines/${pipelineId}`);
      await removePipelineCache(deps.cacheRoot, pipelineId);
    },
  };
}
