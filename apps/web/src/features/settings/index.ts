export { settingsRoutes } from './routes';
export { useProjectUsers } from './api/get-project-users';
export { subscriptionQuery, useSubscription } from './api/get-subscription';
