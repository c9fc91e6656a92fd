/** What other modules see of billing: its api (`needs.billing`). */
export type { BillingService } from './billing.service.js';
