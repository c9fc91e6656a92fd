/** What other modules see of the waste advisor: its api (`needs.advisor`). */
export type { AdvisorService } from './advisor.service.js';
