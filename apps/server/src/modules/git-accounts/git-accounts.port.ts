/** What other modules see of git accounts: its api (`needs.gitAccounts`), also the GitAccess of builds. */
export type { GitAccountsService } from './git-accounts.service.js';
