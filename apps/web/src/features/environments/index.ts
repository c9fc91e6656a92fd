export { environmentRoutes } from './routes';
