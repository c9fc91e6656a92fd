export { overviewRoutes } from './routes';
