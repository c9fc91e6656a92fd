/** What other modules see of projects: its api (`needs.projects`). */
export type { ProjectsService } from './projects.service.js';
