import { createTestApp } from '../../../test/helpers.js';
import { createGitAccountsModule } from './git-accounts.module.js';
import type { UsedByPipelines } from './git-accounts.service.js';

/**
 * createTestApp with a second git-accounts service on the same database, read cache, secrets and configuration,
 * whose clock and pipeline lookup the test controls (token expiry, accounts in use).
 */
export async function createGitAccountsTestApp(env: Record<string, string> = {}, o: { usedByPipelines?: UsedByPipelines; now?: () => Date } = {}) {
  let module!: ReturnType<typeof createGitAccountsModule>;
  const t = await createTestApp(env, {
    beforeReady: async (app, config) => {
      module = createGitAccountsModule({
        db: app.services.database.db,
        cache: app.services.database.cache,
        secrets: app.services.secrets,
        guards: app.services.guards,
        config,
        usedByPipelines: o.usedByPipelines,
        now: o.now,
      });
    },
  });
  return { ...t, gitAccounts: module.service, database: t.app.services.database };
}
