/** What other modules see of cloud accounts: its api (`needs.cloudAccounts`). */
export type { CloudAccountsService } from './cloud-accounts.service.js';
