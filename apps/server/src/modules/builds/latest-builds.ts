import type { Pipeline } from '@gantry/contracts';
import type { ArtifactStore } from '../../platform/artifacts.js';
import type { BuildsStore } from './builds.store.js';
import { toBuild } from './builds.service.js';

/** What pipelines need of their builds: the latest one of each, and their artifacts gone with the pipeline. */
export function createLatestBuilds(deps: { store: BuildsStore; artifacts: ArtifactStore }) {
  return {
    async latestFor(pipelineIds: string[]): Promise<Map<string, Pipeline['latestBuild']>> {
      const rows = await deps.store.latestFor(pipelineIds);
      return new Map(
        rows.map((r) => {
          const { steps: _s, stages: _st, ...rest } = toBuild(r, '');
          return [r.pipelineId, rest];
        }),
      );
    },
    removeArtifactsOf: (pipelineId: string) => deps.artifacts.removePrefix(`pipelines/${pipelineId}`),
  };
}
