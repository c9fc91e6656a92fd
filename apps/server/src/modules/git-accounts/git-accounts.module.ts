import type { GitProvider } from '@gantry/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../platform/db.js';
import type { ReadCache } from '../../platform/read-cache.js';
import type { Guards } from '../../platform/auth.js';
import type { SecretBox } from '../../platform/secrets.js';
import { createGitProviderClients, type GitProviderClients } from '../../integrations/git-providers/index.js';
import { createGitAccountsStore } from './git-accounts.store.js';
import { createGitAccountsService, type UsedByPipelines } from './git-accounts.service.js';
import { gitAccountsRoutes } from './git-accounts.routes.js';
import { defineModule } from '../../platform/module.js';

/** Where a provider sends the browser back: the Git tab finishes the connection from `code` and `type` (spec §2.9). */
export const gitConnectRedirectUri = (baseUrl: string, type: GitProvider) => `${baseUrl.replace(/\/$/, '')}/settings?tab=git&type=${type}`;

/**
 * The git-accounts service with its provider clients and routes (the module below; tests build a second one
 * on the app's database): `service` is also the GitAccess of pipelines and builds (`service.clientFor`).
 */
export function createGitAccountsModule(deps: {
  db: Db;
  /** Keeps an account's row until the accounts are written (none: every read queries). */
  cache?: ReadCache;
  secrets: SecretBox;
  guards: Guards;
  config: Config;
  /** The portal's public address (default PUBLIC_URL, else http://localhost:PORT). */
  baseUrl?: () => string;
  usedByPipelines?: UsedByPipelines;
  /** Hand in clients (tests); by default one per provider configured in `config`. */
  clients?: GitProviderClients;
  now?: () => Date;
}) {
  const baseUrl = deps.baseUrl ?? (() => (deps.config.PUBLIC_URL ?? `http://localhost:${deps.config.PORT}`).replace(/\/$/, ''));
  const clients = deps.clients ?? createGitProviderClients(deps.config, (type) => gitConnectRedirectUri(baseUrl(), type));
  const service = createGitAccountsService({
    store: createGitAccountsStore(deps.db, deps.cache),
    secrets: deps.secrets,
    clients,
    usedByPipelines: deps.usedByPipelines,
    now: deps.now,
  });
  return { service, clients, routes: gitAccountsRoutes({ gitAccounts: service, guards: deps.guards }) };
}

/** Git accounts of a project (OAuth connections, tokens); pipelines answer gitAccountUsers. */
export const gitAccountsModule = defineModule({
  name: 'gitAccounts',
  create(platform) {
    const { service, routes } = createGitAccountsModule({
      db: platform.db,
      cache: platform.database.cache,
      secrets: platform.secrets,
      guards: platform.guards,
      config: platform.config,
      baseUrl: platform.baseUrl,
      usedByPipelines: async (gitAccountId) => (await platform.hooks.gitAccountUsers.collect(gitAccountId)).flat(),
    });
    return { api: service, routes: [{ prefix: '/ms-ap', plugin: routes }] };
  },
});
