/** What other modules see of components: its api (`needs.components`). */
export type { ComponentsService } from './components.service.js';
