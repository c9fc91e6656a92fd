/** The environments feature's public surface: its routes, and what a component's Add to Environment dialog needs. */
export { environmentRoutes } from './routes';
export { useStageList } from './api/stages';
export { useAddComponentToStage } from './api/add-component-to-stage';
