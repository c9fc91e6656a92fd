export { settingsRoutes } from './routes';
export { useProjectUsers } from './api/get-project-users';
export { askIfPlanIncludes, useSubscription } from './api/get-subscription';
