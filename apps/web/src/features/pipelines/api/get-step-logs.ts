import { http } from '../../../api/http';
import { buildPath } from './keys';

export type StepLogChunk = { seq: number; text: string };

/** The stored log of one step; the socket stream is the main path, this is its fallback. */
export const getStepLogs = (projectId: string, pipelineId: string, buildId: string, step: string, signal?: AbortSignal) =>
  http.get<{ chunks: StepLogChunk[] }>(`${buildPath(projectId, pipelineId, buildId)}/steps/${encodeURIComponent(step)}/logs`, { signal });
