/** What other modules see of saving schedules: its api (`needs.schedules`). */
export type { SchedulesService } from './schedules.service.js';
