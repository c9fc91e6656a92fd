export { adminPlanRoutes } from './routes';
