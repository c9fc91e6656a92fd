/** The components feature's public surface: its routes, and the component list the environment screens read. */
export { componentRoutes } from './routes';
export { listComponents, useComponents } from './api/list-components';
