/** The environments feature's public surface: its routes, what a component's Add to Environment dialog needs, the overview's list and its live statuses. */
export { environmentRoutes } from './routes';
export { useStageList } from './api/stages';
export { useDeploymentUpdates } from './hooks/use-deployment-updates';
export { useAddComponentToStage } from './api/add-component-to-stage';
