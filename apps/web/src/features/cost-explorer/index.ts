/** The Cost Explorer's public surface: its routes (dashboard and reports). */
export { costExplorerRoutes } from './routes';
