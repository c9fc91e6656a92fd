export { notFoundRoutes } from './routes';
