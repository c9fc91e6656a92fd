export { settingsRoutes } from './routes';
export { useProjectUsers } from './api/get-project-users';
