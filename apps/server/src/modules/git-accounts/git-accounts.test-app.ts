import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { loadConfig } from '../../config.js';
import { buildApp } from '../../app.js';
import { openTestDatabase, type TestApp } from '../../../test/helpers.js';
import { createGitAccountsModule } from './git-accounts.module.js';
import type { UsedByPipelines } from './git-accounts.service.js';

/**
 * createTestApp (test/helpers.ts) with this module's routes registered under /ms-ap when app.ts does not
 * wire them yet, and this module's service (same database, secrets and configuration) for direct use.
 */
export async function createGitAccountsTestApp(env: Record<string, string> = {}, o: { usedByPipelines?: UsedByPipelines; now?: () => Date } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-test-'));
  const database = await openTestDatabase();
  const config = loadConfig({
    GANTRY_DATA_DIR: dataDir,
    GANTRY_LOG_LEVEL: 'silent',
    GANTRY_RATE_LIMIT: 'false',
    GANTRY_SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    PUBLIC_URL: 'http://gantry.test',
    ...env,
  });
  const app = await buildApp(config, { database });
  const module = createGitAccountsModule({ db: database.db, secrets: app.services.secrets, guards: app.services.guards, config, usedByPipelines: o.usedByPipelines, now: o.now });
  if (!app.hasRoute({ method: 'GET', url: '/ms-ap/git-providers' })) await app.register(module.routes, { prefix: '/ms-ap' });
  await app.ready();
  const t: TestApp = {
    app,
    async close() {
      await app.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    async lastMail(to) {
      const mails = await app.services.mailer.outbox(500);
      return mails.find((m) => m.to === to.toLowerCase());
    },
  };
  return { ...t, gitAccounts: module.service, database };
}
