export { settingsRoutes } from './routes';
export { useProjectUsers } from './api/get-project-users';
export { useSubscription } from './api/get-subscription';
