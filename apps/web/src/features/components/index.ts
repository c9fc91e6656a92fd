export { componentRoutes } from './routes';
