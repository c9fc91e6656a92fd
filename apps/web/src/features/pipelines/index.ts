/** The pipelines feature's public surface: its routes, and the pipeline reads other areas share (one fetcher, one key each). */
export { pipelineRoutes } from './routes';
export { usePipelineList } from './api/list-pipelines';
export { useBuildUpdates } from './hooks/use-build-updates';
export { usePipelineSpecAs } from './api/get-pipeline-spec';
export { useBuildLimitations } from './api/get-build-limitations';
