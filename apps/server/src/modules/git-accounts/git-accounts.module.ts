import type { GitProvider } from '@gantry/contracts';
import type { Config } from '../../config.js';
import type { Db } from '../../platform/db.js';
import type { Guards } from '../../platform/auth.js';
import type { SecretBox } from '../../platform/secrets.js';
import { createGitProviderClients, type GitProviderClients } from '../../integrations/git-providers/index.js';
import { createGitAccountsStore } from './git-accounts.store.js';
import { createGitAccountsService, type UsedByPipelines } from './git-accounts.service.js';
import { gitAccountsRoutes } from './git-accounts.routes.js';

/** Where a provider sends the browser back: the Git tab finishes the connection from `code` and `type` (spec §2.9). */
export const gitConnectRedirectUri = (baseUrl: string, type: GitProvider) => `${baseUrl.replace(/\/$/, '')}/settings?tab=git&type=${type}`;

/**
 * The git-accounts module, wired once in app.ts: `service` (also the GitAccess of pipelines and builds:
 * `service.clientFor`) and `routes` to register under /ms-ap.
 */
export function createGitAccountsModule(deps: {
  db: Db;
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
  const service = createGitAccountsService({ store: createGitAccountsStore(deps.db), secrets: deps.secrets, clients, usedByPipelines: deps.usedByPipelines, now: deps.now });
  return { service, clients, routes: gitAccountsRoutes({ gitAccounts: service, guards: deps.guards }) };
}
