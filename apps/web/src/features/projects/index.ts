/** The projects feature's public surface: its route, the project list (the shell's rail) and the create/edit dialog. */
export { projectRoutes } from './routes';
export { useProjects } from './api/list-projects';
export { ProjectFormModal } from './lazy-dialogs';
